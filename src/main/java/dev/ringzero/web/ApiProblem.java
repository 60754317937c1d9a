package dev.ringzero.web;

import java.net.URI;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * A business error that answers as RFC 9457 problem+json with a stable {@code type}.
 * Services throw it; {@link ProblemAdvice} renders it. The slug is the contract, the
 * message is for people.
 */
public class ApiProblem extends RuntimeException {

    public static final String TYPE_BASE = "https://ringzero.dev/problems/";

    private final HttpStatus status;
    private final String slug;
    private final Map<String, Object> properties;

    public ApiProblem(HttpStatus status, String slug, String message) {
        this(status, slug, message, Map.of());
    }

    public ApiProblem(HttpStatus status, String slug, String message, Map<String, Object> properties) {
        super(message);
        this.status = status;
        this.slug = slug;
        this.properties = properties;
    }

    /** Unknown ids and other owners' ids look the same: 404, no details. */
    public static ApiProblem notFound(String what) {
        return new ApiProblem(HttpStatus.NOT_FOUND, "not-found", what + " not found");
    }

    public static ApiProblem badRequest(String slug, String message) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, slug, message);
    }

    public static ApiProblem conflict(String slug, String message) {
        return new ApiProblem(HttpStatus.CONFLICT, slug, message);
    }

    /** A validation failure that lists each problem as {path, code, message}. */
    public static ApiProblem invalid(String message, List<?> errors) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid-definition", message, Map.of("errors", errors));
    }

    public HttpStatus status() {
        return status;
    }

    public String slug() {
        return slug;
    }

    public ProblemDetail toProblemDetail() {
        ProblemDetail detail = ProblemDetail.forStatusAndDetail(status, getMessage());
        detail.setType(URI.create(TYPE_BASE + slug));
        detail.setTitle(status.getReasonPhrase());
        properties.forEach(detail::setProperty);
        return detail;
    }
}
