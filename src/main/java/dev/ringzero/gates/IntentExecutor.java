package dev.ringzero.gates;

/**
 * Performs one kind of approved intent on the trusted side, holding whatever credential it
 * needs; the agent that proposed the action never sees it. The gate id is the idempotency key.
 */
public interface IntentExecutor {

    boolean handles(String intent);

    /** Executes the frozen payload once; returns a JSON result, or throws if it failed. */
    String execute(Gate gate) throws Exception;
}
