package dev.ringzero;

import java.util.List;
import java.util.Map;

/**
 * A request ring 0 refuses, in the domain's words: what kind of refusal it is, a stable slug
 * (the contract clients rely on) and a message for people. Services throw it and know nothing
 * of HTTP; the web layer's one advice turns the kind into a status and the slug into the
 * problem's {@code type} ({@code https://ringzero.dev/problems/<slug>}).
 */
public final class Refusal extends RuntimeException {

    /** What was wrong with the request; the web layer maps each kind to one status. */
    public enum Kind {
        /** Unknown, or another owner's: the two look the same. */
        NOT_FOUND,
        /** The request itself is wrong: a value, a shape, a reference. */
        INVALID,
        /** The request is fine but the resource's state does not allow it now. */
        CONFLICT,
        /** The caller is known but may not do this. */
        FORBIDDEN,
        /** No valid credential came with the request. */
        UNAUTHENTICATED,
        /** The request is larger than the platform accepts. */
        TOO_LARGE,
        /** The body comes in a form the platform does not read. */
        UNSUPPORTED_MEDIA_TYPE,
        /** Something the request needs is not there now (no model configured, the model failed). */
        UNAVAILABLE
    }

    private final Kind kind;
    private final String slug;
    private final Map<String, Object> properties;

    public Refusal(Kind kind, String slug, String message) {
        this(kind, slug, message, Map.of());
    }

    public Refusal(Kind kind, String slug, String message, Map<String, Object> properties) {
        super(message);
        this.kind = kind;
        this.slug = slug;
        this.properties = Map.copyOf(properties);
    }

    /** Unknown ids and other owners' ids look the same: not found, no details. */
    public static Refusal notFound(String what) {
        return new Refusal(Kind.NOT_FOUND, "not-found", what + " not found");
    }

    public static Refusal invalid(String slug, String message) {
        return new Refusal(Kind.INVALID, slug, message);
    }

    public static Refusal conflict(String slug, String message) {
        return new Refusal(Kind.CONFLICT, slug, message);
    }

    public static Refusal forbidden(String slug, String message) {
        return new Refusal(Kind.FORBIDDEN, slug, message);
    }

    /** A definition that fails validation, listing each problem as {path, code, message}. */
    public static Refusal invalidDefinition(String message, List<?> errors) {
        return new Refusal(Kind.INVALID, "invalid-definition", message, Map.of("errors", errors));
    }

    public Kind kind() {
        return kind;
    }

    public String slug() {
        return slug;
    }

    /** Extra members of the problem (for example the list of validation errors). */
    public Map<String, Object> properties() {
        return properties;
    }
}
