package dev.ringzero.gates;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Performs one kind of approved intent on the trusted side, holding whatever credential it
 * needs; the agent that proposed the action never sees it. The gate id is the idempotency key:
 * an executor must leave a durable trace of every attempt <em>before</em> anything leaves the
 * platform (a device's {@code rz_invocation} row, a ring-3 {@link Attempts pre-send record}), so
 * that a crash or a job retry is reconciled from that trace instead of acting twice.
 */
public interface IntentExecutor {

    boolean handles(String intent);

    /**
     * Checks a payload before it is frozen, so the owner is never asked to approve something that
     * cannot run. Throws {@link dev.ringzero.Refusal} (400) when it is malformed.
     */
    default void validate(String ownerId, String intent, JsonNode payload) {
    }

    /**
     * Executes the frozen payload of a gate that is committed {@code executing}. If an earlier
     * attempt left a trace, this must reconcile from it rather than act again.
     */
    Execution execute(Gate gate);

    /**
     * After a crash or a lost answer: what became of the attempt, from its durable trace.
     * {@link Execution.NotStarted} when there is none (nothing ever left the platform).
     */
    Execution reconcile(Gate gate);

    /**
     * Waits (outside any transaction) until an {@link Execution.InFlight} attempt is answered or
     * {@code within} has passed; used where no process instance waits for the answer.
     */
    default void awaitOutcome(Gate gate, java.time.Duration within) {
    }
}
