package dev.ringzero.dispatch;

/**
 * Wakes the run that sent an answered invocation, in the transaction that records the answer:
 * one commit for the answer and the step it wakes. If that transaction fails, the answer is
 * recorded alone and the run woken once more in a transaction of its own.
 */
public interface RunWake {

    void answered(String invocationId, String runId, Outcome outcome);
}
