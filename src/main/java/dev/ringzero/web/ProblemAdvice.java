package dev.ringzero.web;

import java.net.URI;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.ringzero.Refusal;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Renders every REST error as problem+json with a stable type: RingZero's refusals, the
 * framework's own errors (unknown route, wrong method, unreadable or unsupported body), and, as a
 * last resort, an unexpected failure (500, logged, with no internals in the answer). Not limited to
 * RingZero's controllers: an unknown route is answered by Spring's resource handler.
 */
@RestControllerAdvice
class ProblemAdvice extends ResponseEntityExceptionHandler {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ProblemAdvice.class);

    @ExceptionHandler(Refusal.class)
    ResponseEntity<ProblemDetail> refusal(Refusal refusal) {
        return ResponseEntity.status(Problems.status(refusal)).body(Problems.of(refusal));
    }

    /** Nothing else matched: a defect of ours. Logged with its trace; the client learns only that. */
    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception ex, WebRequest request) throws Exception {
        // the framework's own errors are answered by the handlers above, with their own statuses
        if (ex instanceof org.springframework.web.ErrorResponse) {
            throw ex;
        }
        log.error("unexpected failure answering {}", request.getDescription(false), ex);
        return ResponseEntity.internalServerError().body(Problems.detail(HttpStatus.INTERNAL_SERVER_ERROR,
                "internal-error", "the platform failed to answer this request; the failure is logged for its operator"));
    }

    /**
     * The framework's own problems (unknown route, wrong method, unsupported media type, …) keep
     * their status and detail and get a stable type instead of {@code about:blank}.
     */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
            HttpStatusCode statusCode, WebRequest request) {
        ResponseEntity<Object> response = super.handleExceptionInternal(ex, body, headers, statusCode, request);
        if (response != null && response.getBody() instanceof ProblemDetail detail
                && URI.create("about:blank").equals(detail.getType())) {
            detail.setType(URI.create(Problems.TYPE_BASE + slug(statusCode)));
        }
        return response;
    }

    private static String slug(HttpStatusCode status) {
        return switch (status.value()) {
            case 400 -> "malformed-request";
            case 404 -> "not-found";
            case 405 -> "method-not-allowed";
            case 406 -> "not-acceptable";
            case 413 -> "payload-too-large";
            case 415 -> "unsupported-media-type";
            default -> status.is5xxServerError() ? "internal-error" : "request-refused";
        };
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail detail = Problems.detail(HttpStatus.BAD_REQUEST, "malformed-request", describe(ex));
        if (ex.getCause() instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            detail.setProperty("field", fieldPath(mapping));
        }
        return ResponseEntity.badRequest().body(detail);
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        String fields = ex.getBindingResult().getFieldErrors().stream()
                .map(error -> error.getField() + ": " + error.getDefaultMessage())
                .collect(Collectors.joining("; "));
        ProblemDetail detail = Problems.detail(HttpStatus.BAD_REQUEST, "invalid-request", fields);
        detail.setProperty("fields", ex.getBindingResult().getFieldErrors().stream()
                .map(error -> error.getField()).toList());
        return ResponseEntity.badRequest().body(detail);
    }

    private static String describe(HttpMessageNotReadableException ex) {
        Throwable cause = ex.getCause();
        if (cause instanceof UnrecognizedPropertyException unknown) {
            return "unknown field '" + fieldPath(unknown) + "'";
        }
        if (cause instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            return "field '" + fieldPath(mapping) + "' has the wrong type or value";
        }
        if (cause instanceof JsonProcessingException) {
            return "malformed JSON: " + ((JsonProcessingException) cause).getOriginalMessage();
        }
        return "the request body is missing or unreadable";
    }

    private static String fieldPath(JsonMappingException mapping) {
        return mapping.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining("."));
    }
}
