package dev.ringzero.kernel;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * An action envelope's intent: a ring-3 integration ({@code email.send}, {@code webhook.post}) or a
 * device command an agent proposes through the gate path. The subject comes from the run, never from
 * the envelope. {@code payload} is what a human would approve; trust predicates match against it.
 */
public record IntentRequest(Subject subject, String intent, Map<String, Object> payload, Instant at) {

    public IntentRequest {
        Objects.requireNonNull(subject, "subject");
        Require.text(intent, "intent");
        payload = Require.frozen(payload);
        Objects.requireNonNull(at, "at");
    }
}
