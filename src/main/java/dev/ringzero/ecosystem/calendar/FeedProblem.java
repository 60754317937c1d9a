package dev.ringzero.ecosystem.calendar;

/**
 * Why a feed could not be read, with a stable slug. Storing a feed turns it into a 400 (the request
 * names a feed that does not work); reading a stored feed into a 409 (the feed is configured, but
 * its state does not allow an answer now).
 */
final class FeedProblem extends RuntimeException {

    static final String UNREACHABLE = "calendar-unreachable";
    static final String TOO_LARGE = "calendar-too-large";
    static final String UNPARSEABLE = "calendar-unparseable";

    private final String slug;

    FeedProblem(String slug, String message) {
        super(message);
        this.slug = slug;
    }

    String slug() {
        return slug;
    }
}
