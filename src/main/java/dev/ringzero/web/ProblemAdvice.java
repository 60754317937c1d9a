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

/** Renders every REST error as problem+json with a stable type. */
@RestControllerAdvice(basePackages = "dev.ringzero")
class ProblemAdvice extends ResponseEntityExceptionHandler {

    @ExceptionHandler(Refusal.class)
    ResponseEntity<ProblemDetail> refusal(Refusal refusal) {
        return ResponseEntity.status(Problems.status(refusal)).body(Problems.of(refusal));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail detail = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, describe(ex));
        detail.setType(URI.create(Problems.TYPE_BASE + "malformed-request"));
        detail.setTitle("Bad Request");
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
        ProblemDetail detail = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, fields);
        detail.setType(URI.create(Problems.TYPE_BASE + "invalid-request"));
        detail.setTitle("Bad Request");
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
