package dev.ringzero.agents.llm;

/**
 * Wakes the run waiting for a model turn once the turn is ready or failed (implemented by the
 * workflow: the wait is {@code Task_AwaitModelReply} of {@code agent-run}), in the caller's
 * transaction: the turn's record and the wake commit together, or neither does.
 */
public interface SessionWake {

    /**
     * Wakes the wait for this turn, the run's latest, if there is one (none: the run ended
     * meanwhile): the engine execution {@code waitExecution} its record names (null: a turn an
     * earlier version recorded, whose run waits in an older model and is ended at start). False if
     * it is there but cannot be woken now (its instance is suspended, from Cockpit say), so the
     * turn is to be woken again later.
     */
    boolean turnDone(String runId, int turn, String waitExecution);
}
