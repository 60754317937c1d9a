package dev.ringzero.web;

import java.net.URI;

import dev.ringzero.Refusal;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * The one translation of a {@link Refusal} into HTTP: its kind picks the status, its slug the
 * problem's stable {@code type}. The slug is the contract, the message is for people.
 */
public final class Problems {

    public static final String TYPE_BASE = "https://ringzero.dev/problems/";

    private Problems() {
    }

    public static HttpStatus status(Refusal refusal) {
        return switch (refusal.kind()) {
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case INVALID -> HttpStatus.BAD_REQUEST;
            case CONFLICT -> HttpStatus.CONFLICT;
            case FORBIDDEN -> HttpStatus.FORBIDDEN;
            case UNAUTHENTICATED -> HttpStatus.UNAUTHORIZED;
            case TOO_LARGE -> HttpStatus.PAYLOAD_TOO_LARGE;
            case UNSUPPORTED_MEDIA_TYPE -> HttpStatus.UNSUPPORTED_MEDIA_TYPE;
            case UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
        };
    }

    public static ProblemDetail of(Refusal refusal) {
        ProblemDetail detail = detail(status(refusal), refusal.slug(), refusal.getMessage());
        refusal.properties().forEach(detail::setProperty);
        return detail;
    }

    /** A problem of this status and slug; the title is the status's reason phrase. */
    static ProblemDetail detail(HttpStatus status, String slug, String message) {
        ProblemDetail detail = ProblemDetail.forStatusAndDetail(status, message);
        detail.setType(URI.create(TYPE_BASE + slug));
        detail.setTitle(status.getReasonPhrase());
        return detail;
    }
}
