package dev.ringzero.firmware;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * A received {@code link.invoke}, as a handler sees it.
 *
 * @param id        the invocation id, which is also the idempotency key
 * @param command   e.g. {@code speaker.say}
 * @param params    always a JSON node (an empty object when the envelope had none)
 * @param timeoutMs what the platform will wait; 0 when absent
 * @param deadline  epoch millis after which the board must not execute, or null
 */
public record InvokeRequest(String id, String command, JsonNode params, long timeoutMs, Long deadline) {

    public InvokeRequest {
        if (params == null || params.isNull() || params.isMissingNode()) {
            params = JsonNodeFactory.instance.objectNode();
        }
    }

    /** Reads the envelope; null when it has no usable id (nothing could be answered then). */
    static InvokeRequest fromEnvelope(JsonNode envelope) {
        JsonNode id = envelope.path("id");
        if (!id.isTextual() || id.asText().isBlank()) {
            return null;
        }
        JsonNode command = envelope.path("command");
        JsonNode deadline = envelope.path("deadline");
        return new InvokeRequest(
                id.asText(),
                command.isTextual() ? command.asText() : null,
                envelope.get("params"),
                envelope.path("timeout_ms").asLong(0),
                deadline.isNumber() ? deadline.asLong() : null);
    }

    /** A string parameter (already validated when declared required), or null. */
    public String text(String name) {
        JsonNode v = params.get(name);
        return v != null && v.isTextual() ? v.asText() : null;
    }

    /** A number parameter, or the fallback when absent. */
    public double number(String name, double fallback) {
        JsonNode v = params.get(name);
        return v != null && v.isNumber() ? v.asDouble() : fallback;
    }

    public boolean has(String name) {
        JsonNode v = params.get(name);
        return v != null && !v.isNull();
    }
}
