package dev.ringzero.dispatch;

import java.time.Instant;

/**
 * One command as {@code rz_invocation} records it: the trace that says whether it may have left
 * ({@code sent}: no answer yet) and with which deadline. {@code params} is the stored JSON.
 */
public record Invocation(String id, String gadgetId, String command, String params, String outcome, Instant sentAt,
        Instant deadline) {

    /** Recorded as sent and not answered yet: it may have reached the device. */
    public boolean unanswered() {
        return "sent".equals(outcome);
    }
}
