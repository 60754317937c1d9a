package dev.ringzero.gates;

import java.time.Instant;

/**
 * A gated action frozen at filing: the human approves exactly {@link Proposal#payload()}, whose
 * SHA-256 is stored beside it. The row in {@code rz_gate} is the authoritative state.
 *
 * @param proposal what was asked, frozen when filed; it never changes
 * @param decision who decides: the trust rule that sent it to the desk or let it through, and the human
 * @param timeline when it moved
 * @param result the executor's outcome (JSON), or why it ended without one; null while open
 */
public record Gate(String id, GateState state, Proposal proposal, Decision decision, Timeline timeline,
        String result, String processInstanceId) {

    /**
     * What the gate asks for. {@code agentId} and {@code runId} are null on the owner's own direct
     * path; {@code gadgetId} is null for an intent that names no gadget.
     */
    public record Proposal(String ownerId, String agentId, String runId, String intent, String gadgetId,
            String payload, String payloadSha256, String rationale) {
    }

    /**
     * {@code ruleId} is the trust rule that sent it to the desk (null: the intent's default);
     * {@code auto} marks an action the trust ladder let through without a human, recorded as a gate
     * so it executes with the same exactly-once machinery. {@code decidedBy} and {@code note} are the
     * human's, null until someone decides.
     */
    public record Decision(String ruleId, boolean auto, String decidedBy, String note) {

        /** Nobody has decided yet: only the ladder's verdict. */
        public static Decision byLadder(String ruleId, boolean auto) {
            return new Decision(ruleId, auto, null, null);
        }

        /** Who or what decided, as the audit names it: the human, the trust rule, or the default. */
        public String decider() {
            if (decidedBy != null) {
                return decidedBy;
            }
            return ruleId == null ? "default" : "trust-rule:" + ruleId;
        }
    }

    /** When the gate was filed, decided, began executing and finished; null until it happens. */
    public record Timeline(Instant filedAt, Instant decidedAt, Instant executingAt, Instant finishedAt) {

        public static Timeline filed(Instant at) {
            return new Timeline(at, null, null, null);
        }

        /** Filed, decided (by the ladder) and executing at once: an auto-execution. */
        public static Timeline executingAt(Instant at) {
            return new Timeline(at, at, at, null);
        }
    }

    /** A new gate waiting for its owner. */
    static Gate pending(String id, Proposal proposal, String ruleId, Instant at) {
        return new Gate(id, GateState.PENDING, proposal, Decision.byLadder(ruleId, false), Timeline.filed(at),
                null, null);
    }

    /** A new gate the trust ladder let through: recorded {@code executing}, with no human. */
    static Gate auto(String id, Proposal proposal, String ruleId, Instant at) {
        return new Gate(id, GateState.EXECUTING, proposal, Decision.byLadder(ruleId, true), Timeline.executingAt(at),
                null, null);
    }

    public String ownerId() {
        return proposal.ownerId();
    }

    public String agentId() {
        return proposal.agentId();
    }

    public String runId() {
        return proposal.runId();
    }

    public String intent() {
        return proposal.intent();
    }

    /** The frozen payload (canonical JSON). */
    public String payload() {
        return proposal.payload();
    }

    public String ruleId() {
        return decision.ruleId();
    }

    public boolean auto() {
        return decision.auto();
    }

    /** Who or what decided, as the audit names it: the human, the trust rule, or the default. */
    public String decider() {
        return decision.decider();
    }
}
