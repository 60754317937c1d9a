package dev.ringzero.agents.runs;

/**
 * What starting a run needs of the workflow engine, owned here and implemented by the
 * {@code agent-run} process: every run is one process instance, business key = run id.
 */
public interface RunEngine {

    /**
     * Starts the run in the caller's transaction: admission, preparation and the first action's
     * dispatch happen before this returns (the command leaves once the caller commits). Returns the
     * process instance id.
     */
    String start(RunRequest request);
}
