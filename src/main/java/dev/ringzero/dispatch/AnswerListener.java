package dev.ringzero.dispatch;

/**
 * Told of every answered invocation once the answer is recorded (committed), outside any
 * transaction: a gate settles from it and starts what follows in transactions of its own.
 */
public interface AnswerListener {

    void answered(String invocationId, String runId, Outcome outcome);
}
