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

    /** A run's device command the kernel refused: audited and journaled (the run records it too). */
    void refused(String ownerId, String agentId, String runId, String command, String reason);

    /** A run's device command that ran without a human (trust ladder: auto), with its outcome. */
    void autoExecuted(String ownerId, String agentId, String runId, String command, String ruleId, String outcome);
}
