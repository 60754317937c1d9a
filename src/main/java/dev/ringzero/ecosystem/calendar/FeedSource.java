package dev.ringzero.ecosystem.calendar;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

import dev.ringzero.Refusal;

/** Where an owner's feed comes from: an http(s) address, or a file in the operator's calendar directory. */
sealed interface FeedSource permits FeedSource.Url, FeedSource.File {

    int MAX_URL = 2000;

    /** An absolute http(s) address with a host and no credentials in it. */
    record Url(URI uri) implements FeedSource {

        /** The host (and port, if any): what messages name, never the path or query, which may hold a secret. */
        String where() {
            return uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
        }
    }

    /** A name relative to {@code ringzero.calendar.file-dir}, checked by {@link FeedFetcher#file}. */
    record File(String name) implements FeedSource {
    }

    static Url url(String text) {
        URI uri;
        try {
            uri = new URI(text.strip());
        } catch (URISyntaxException e) {
            throw Refusal.invalid("invalid-calendar-url", "'url' is not a valid address: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("webcal") || scheme.equals("webcals")) {
            throw Refusal.invalid("invalid-calendar-url", "'url' must be http:// or https://; for a webcal:// "
                    + "address, write https:// (or http://) instead of webcal://");
        }
        if (!scheme.equals("https") && !scheme.equals("http") || uri.getHost() == null || uri.isOpaque()) {
            throw Refusal.invalid("invalid-calendar-url", "'url' must be an absolute http:// or https:// address "
                    + "with a host");
        }
        if (uri.getRawUserInfo() != null) {
            throw Refusal.invalid("invalid-calendar-url", "'url' must not carry credentials (user:password@): "
                    + "use the calendar's secret address instead");
        }
        if (text.length() > MAX_URL) {
            throw Refusal.invalid("invalid-calendar-url", "'url' is longer than " + MAX_URL + " characters");
        }
        return new Url(uri);
    }
}
