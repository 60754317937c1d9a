package dev.ringzero.firmware;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One {@code link.invoke} as the board received it, and what it did with it, so a
 * test can tell "the hardware acted twice" from "the board answered twice".
 */
public record ReceivedInvocation(String id, String command, Map<String, Object> params, Instant receivedAt,
                                 Handling handling) {

    public ReceivedInvocation {
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
    }

    /** What happened to a received invocation. */
    public enum Handling {
        /** the handler ran; it may still have declined (busy, a local limit): see the result and the board's logs */
        EXECUTED,
        /** a repeated id: answered with the stored result, or joined the execution still running; handler not run */
        REPLAYED,
        /** answered with an error without running the handler: unsupported, invalid_params, expired, injected fault */
        REFUSED,
        /** the board was silent: neither executed nor answered, nothing stored */
        SILENCED
    }

    /** True when this delivery made the handler run. */
    public boolean executed() {
        return handling == Handling.EXECUTED;
    }

    /** True when this delivery was a repeat answered from the result store. */
    public boolean answeredFromStore() {
        return handling == Handling.REPLAYED;
    }
}
