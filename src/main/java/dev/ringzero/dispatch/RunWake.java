package dev.ringzero.dispatch;

/**
 * Wakes the run that sent an answered invocation, in the transaction that records the answer:
 * one commit for the answer and the step it wakes. If that transaction fails, the answer is
 * recorded alone and the run woken once more in a transaction of its own.
 */
public interface RunWake {

    /**
     * {@code atOnce}: the run is woken in this transaction whatever it is (the node's rehearsal,
     * whose transaction never commits, needs its session's next turn asked in it). Otherwise an
     * llm session's run may be woken after the commit, once this node's device events had their
     * turn (its command's record, which the answer's deadline sweep watches, keeps the answer).
     */
    void answered(String invocationId, String runId, Outcome outcome, boolean atOnce);
}
