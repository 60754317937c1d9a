package dev.ringzero.gates;

import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.Refusal;
import dev.ringzero.accounts.Tokens;
import org.springframework.stereotype.Component;

/**
 * Freezes what a gate asks for: an intent some executor performs, a payload that executor accepts,
 * in canonical bytes (sorted keys, so the same payload always hashes the same) with their SHA-256.
 * A proposal that could never run is refused here, before anyone is asked to approve it.
 */
@Component
class GateProposals {

    private final IntentExecutors executors;
    private final ObjectMapper canonicalJson;

    GateProposals(IntentExecutors executors, ObjectMapper json) {
        this.executors = executors;
        this.canonicalJson = canonical(json);
    }

    /** A copy of {@code json} that writes map keys in sorted order. */
    static ObjectMapper canonical(ObjectMapper json) {
        return json.copy().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
    }

    /** Refuses an intent no executor handles and a payload its executor rejects. */
    Gate.Proposal freeze(GateService.Filing filing) {
        IntentExecutor executor = executors.forIntent(filing.intent())
                .orElseThrow(() -> Refusal.invalid("unknown-intent", "no executor for intent '"
                        + filing.intent() + "'"));
        JsonNode payload = filing.payload() == null ? canonicalJson.createObjectNode() : filing.payload();
        executor.validate(filing.ownerId(), filing.intent(), payload);
        String frozen = canonical(payload);
        return new Gate.Proposal(filing.ownerId(), filing.agentId(), filing.runId(), filing.intent(),
                filing.gadgetId(), frozen, Tokens.sha256(frozen), filing.rationale());
    }

    /** A run's device command as a gate's payload: the gadget, the command and its rendered params. */
    ObjectNode deviceCommand(String gadgetId, String command, Map<String, Object> params) {
        ObjectNode payload = canonicalJson.createObjectNode();
        payload.put("gadget", gadgetId);
        payload.put("command", command);
        payload.set("params", canonicalJson.valueToTree(params));
        return payload;
    }

    private String canonical(JsonNode payload) {
        try {
            Object tree = canonicalJson.treeToValue(payload, Object.class);
            return canonicalJson.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw Refusal.invalid("malformed-payload", "payload is not valid JSON");
        }
    }
}
