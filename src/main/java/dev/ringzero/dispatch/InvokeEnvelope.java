package dev.ringzero.dispatch;

import java.time.Instant;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The {@code link.invoke} envelope, built in this one place: a first send and the replay of a
 * recorded invocation put the same bytes on the wire (the id is the device's idempotency key).
 */
final class InvokeEnvelope {

    private InvokeEnvelope() {
    }

    static byte[] encode(ObjectMapper json, String invocationId, String command, JsonNode params, long timeoutMs,
            Instant deadline) {
        ObjectNode envelope = json.createObjectNode();
        envelope.put("method", "link.invoke");
        envelope.put("id", invocationId);
        envelope.put("command", command);
        envelope.set("params", params);
        envelope.put("timeout_ms", timeoutMs);
        envelope.put("deadline", deadline.toEpochMilli());
        try {
            return json.writeValueAsBytes(envelope);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
