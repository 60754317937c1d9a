package dev.ringzero.gates;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.router.InboxService;
import org.springframework.stereotype.Component;

/** {@code inbox.post {text}}: a message to the owner's own inbox (the smallest real intent). */
@Component
class InboxPostExecutor implements IntentExecutor {

    private final InboxService inbox;
    private final ObjectMapper json;

    InboxPostExecutor(InboxService inbox, ObjectMapper json) {
        this.inbox = inbox;
        this.json = json;
    }

    @Override
    public boolean handles(String intent) {
        return "inbox.post".equals(intent);
    }

    @Override
    public String execute(Gate gate) throws Exception {
        JsonNode payload = json.readTree(gate.payload());
        String id = inbox.post(gate.ownerId(), "gate", payload.path("text").asText(), gate.payload());
        return json.writeValueAsString(java.util.Map.of("message", id));
    }
}
