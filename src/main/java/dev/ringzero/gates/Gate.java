package dev.ringzero.gates;

import java.time.Instant;

/**
 * A gated action frozen at filing: the human approves exactly {@code payload}, whose SHA-256
 * is stored beside it. The row in {@code rz_gate} is the authoritative state. {@code ruleId} is
 * the trust rule that sent it to the desk (null: the intent's default); {@code auto} marks an
 * action the trust ladder let through without a human, recorded here so it executes with the
 * same exactly-once machinery.
 */
public record Gate(
        String id,
        String ownerId,
        String agentId,
        String runId,
        String intent,
        String gadgetId,
        String payload,
        String payloadSha256,
        String rationale,
        GateState state,
        String decidedBy,
        String decisionNote,
        String result,
        String processInstanceId,
        Instant filedAt,
        Instant decidedAt,
        Instant executingAt,
        Instant finishedAt,
        String ruleId,
        boolean auto) {

    /** Who or what decided, as the audit names it: the human, the trust rule, or the default. */
    public String decider() {
        if (decidedBy != null) {
            return decidedBy;
        }
        return ruleId == null ? "default" : "trust-rule:" + ruleId;
    }
}
