package dev.ringzero.gates;

import java.time.Instant;

/**
 * A gated action frozen at filing: the human approves exactly {@code payload}, whose SHA-256
 * is stored beside it. The row in {@code rz_gate} is the authoritative state.
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
        Instant finishedAt) {
}
