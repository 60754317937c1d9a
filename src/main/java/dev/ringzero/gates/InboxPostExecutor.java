package dev.ringzero.gates;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.router.InboxService;
import dev.ringzero.Refusal;
import org.springframework.stereotype.Component;

/** {@code inbox.post {text}}: a message to the owner's own inbox (the smallest real intent). */
@Component
class InboxPostExecutor implements IntentExecutor {

    static final String INTENT = "inbox.post";

    private final InboxService inbox;
    private final Attempts attempts;
    private final ObjectMapper json;

    InboxPostExecutor(InboxService inbox, Attempts attempts, ObjectMapper json) {
        this.inbox = inbox;
        this.attempts = attempts;
        this.json = json;
    }

    @Override
    public boolean handles(String intent) {
        return INTENT.equals(intent);
    }

    @Override
    public void validate(String ownerId, String intent, JsonNode payload) {
        JsonNode text = payload.path("text");
        if (!text.isTextual() || text.asText().isBlank() || text.asText().length() > 4000) {
            throw Refusal.invalid("invalid-payload", "inbox.post needs a text of 1 to 4000 characters");
        }
    }

    @Override
    public Execution execute(Gate gate) {
        // the message and its attempt record commit together: a retry finds the record, never a second message
        return attempts.local(gate, "inbox", () -> {
            JsonNode payload = json.readTree(gate.payload());
            String id = inbox.post(gate.ownerId(), "gate", payload.path("text").asText(), gate.payload());
            return json.writeValueAsString(Map.of("outcome", "completed", "message", id));
        });
    }

    @Override
    public Execution reconcile(Gate gate) {
        return attempts.reconcile(gate);
    }
}
