package dev.ringzero.agents.llm;

/**
 * Wakes the run waiting for a model turn once the turn is ready or failed (implemented by the
 * workflow: the wait is {@code Catch_ModelReply} of {@code agent-run}). A wake nobody takes is
 * harmless: the turn's deadline wakes the run, which reads the turn's record either way.
 */
public interface SessionWake {

    void turnDone(String runId, int turn);
}
