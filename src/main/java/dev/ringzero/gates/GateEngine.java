package dev.ringzero.gates;

import java.util.Map;

/**
 * What the approval desk needs of the workflow engine, owned here and implemented by the
 * {@code gate} process: start a gate's instance, complete its review as the deciding person,
 * fence it, move it past its device's answer, and tell whether it still carries on by itself.
 */
public interface GateEngine {

    /** Starts the gate's process (business key = gate id) with its readable variables; the instance id. */
    String start(Gate gate, Map<String, Object> readable);

    /** Completes the review as {@code userId}, under the engine's authorizations; false if already decided. */
    boolean completeReview(Gate gate, String userId, boolean approve, String note);

    /** Runs {@code work} as the platform rather than as the person whose decision triggered it. */
    void asPlatform(Runnable work);

    /** Ends a fenced gate's review, if it still waits. */
    void fence(Gate gate);

    /** Moves a gate that waits for its device's answer on; nothing if it does not wait. */
    void answered(String gateId);

    /** The id of the gate's open review task (what Tasklist shows), if it waits for a person. */
    default java.util.Optional<String> reviewTaskId(Gate gate) {
        return java.util.Optional.empty();
    }

    /** Whether the gate's process will still act on it by itself (running, no job out of retries). */
    boolean carriesOn(Gate gate);
}
