package dev.ringzero.agents.runs;

import java.util.Map;

/**
 * Where a run files an action the trust ladder holds for a human. The run never waits: it
 * records the action as {@code gated} with the gate id and goes on; the gate process carries
 * the approval and executes on the trusted side.
 */
public interface GateDesk {

    /** Files a gate with the frozen action; returns the gate id. */
    String fileForRun(String ownerId, String agentId, String runId, String gadgetId, String command,
            Map<String, Object> params, String ruleId);

    /**
     * A rules run's ring-3 action ({@code email.send}, {@code webhook.post}), in the run's
     * transaction: the kernel decides (standing, the {@code allow.intents} grant, the trust ladder),
     * then a gate is filed for a human, or an {@code auto} gate is recorded and executed once this
     * transaction commits (never inside it, never twice), or it is refused (audited, journaled).
     */
    IntentFiled fileIntent(String ownerId, String agentId, int revision, String runId, String intent,
            Map<String, Object> payload);

    /** What became of a run's ring-3 action. */
    sealed interface IntentFiled permits Gated, Accepted, Refused {
    }

    /** Waits for the owner in a gate. */
    record Gated(String gateId) implements IntentFiled {
    }

    /** The trust ladder let it through: its auto gate executes after the run's step commits. */
    record Accepted(String gateId) implements IntentFiled {
    }

    /** Refused: {@code reason} a stable code (the kernel's, or invalid_payload). */
    record Refused(String reason, String detail) implements IntentFiled {
    }

    /** A run's device command the kernel refused: audited and journaled (the run records it too). */
    void refused(String ownerId, String agentId, String runId, String command, String reason);

    /** A run's device command that ran without a human (trust ladder: auto), with its outcome. */
    void autoExecuted(String ownerId, String agentId, String runId, String command, String ruleId, String outcome);
}
