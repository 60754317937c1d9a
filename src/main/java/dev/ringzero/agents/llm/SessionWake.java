package dev.ringzero.agents.llm;

/**
 * Wakes the run waiting for a model turn once the turn is ready or failed (implemented by the
 * workflow: the wait is {@code Catch_ModelReply} of {@code agent-run}), in the caller's
 * transaction: the turn's record and the wake commit together, or neither does.
 */
public interface SessionWake {

    /**
     * Wakes the wait for this turn, if there is one (none: the run ended meanwhile); false if it is
     * there but cannot be woken now (its instance is suspended, from Cockpit say), so the turn is
     * to be woken again later.
     */
    boolean turnDone(String runId, int turn);
}
