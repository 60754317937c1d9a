package dev.ringzero.gates;

import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.Refusal;

/** A gate as its owner reads it, one shape for every door (REST, MCP, which only reads). */
public record GateView(String id, String state, String intent, String agentId, String runId, String gadgetId,
        JsonNode payload, String payloadSha256, String rationale, String decidedBy, String decisionNote,
        JsonNode result, java.time.Instant filedAt, java.time.Instant decidedAt, java.time.Instant executingAt,
        java.time.Instant finishedAt, String ruleId, boolean auto,
        @io.swagger.v3.oas.annotations.media.Schema(description = "a pending gate's review task in Tasklist "
                + "(its form: /camunda/app/tasklist/default/#/?task=<id>)")
        String reviewTaskId,
        @io.swagger.v3.oas.annotations.media.Schema(description = "whose gate it is") String ownerId) {

    public static GateView of(Gate gate, com.fasterxml.jackson.databind.ObjectMapper json) {
        return of(gate, json, null);
    }

    /** With the Tasklist task a pending gate waits in ({@code null}: none, or not asked). */
    public static GateView of(Gate gate, com.fasterxml.jackson.databind.ObjectMapper json, String reviewTaskId) {
        try {
            Gate.Proposal proposal = gate.proposal();
            Gate.Timeline timeline = gate.timeline();
            return new GateView(gate.id(), gate.state().wire(), gate.intent(), gate.agentId(), gate.runId(),
                    proposal.gadgetId(), json.readTree(gate.payload()), proposal.payloadSha256(),
                    proposal.rationale(), gate.decision().decidedBy(), gate.decision().note(),
                    gate.result() == null ? null : json.readTree(gate.result()), timeline.filedAt(),
                    timeline.decidedAt(), timeline.executingAt(), timeline.finishedAt(), gate.ruleId(),
                    gate.auto(), reviewTaskId, gate.ownerId());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A state filter as a client writes it ({@code pending}, {@code executed}, …); null is every state. */
    public static GateState stateFilter(String state) {
        if (state == null) {
            return null;
        }
        try {
            return GateState.valueOf(state.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw Refusal.invalid("invalid-state", "unknown gate state '" + state + "'");
        }
    }
}
