package dev.ringzero.gates;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The frozen proposal as a person reads it in the Tasklist review form (the gate process's variables). */
final class ReviewForm {

    private final ObjectMapper json;

    ReviewForm(ObjectMapper json) {
        this.json = json;
    }

    Map<String, Object> variables(Gate gate) {
        try {
            JsonNode payload = json.readTree(gate.payload());
            Object tree = json.treeToValue(payload, Object.class);
            String pretty = json.writerWithDefaultPrettyPrinter().writeValueAsString(tree);
            Gate.Proposal proposal = gate.proposal();
            Map<String, Object> variables = new LinkedHashMap<>();
            variables.put("intent", gate.intent());
            variables.put("requestedBy", gate.agentId() == null ? "you (direct)" : "agent " + gate.agentId()
                    + (gate.runId() == null ? "" : ", run " + gate.runId()));
            variables.put("rationale", proposal.rationale() == null ? "" : proposal.rationale());
            variables.put("summary", GateSummary.of(gate.intent(), payload));
            variables.put("whyAsked", gate.ruleId() == null
                    ? "No trust rule of yours matches, and " + gate.intent() + " waits for you by default."
                    : "Your trust rule " + gate.ruleId() + " sends this to you.");
            variables.put("payloadText", pretty);
            variables.put("payloadSha256", proposal.payloadSha256());
            variables.put("filedAt", gate.timeline().filedAt().toString());
            return variables;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a frozen payload is always JSON", e);
        }
    }
}
