package dev.ringzero.agents.runs;

import java.util.Locale;
import java.util.Set;

/**
 * A run's status (CONTRACTS.md §4): {@code admitted → running → succeeded | failed | partially_failed},
 * or ended before running. {@code queued} is a run waiting for its turn under {@code concurrency: queued}.
 * A run admitted at once starts in the transaction that admits it, so its row is written
 * {@code running} straight away ({@link RunAdmission#admit}); {@code admitted} is admission's verdict.
 * {@code cooling} is a run of a queued agent that arrived in the cooldown and waits on a timer for its
 * next eligible time (its budget's {@code cooldownWaitSeconds}); it holds no slot and counts against
 * no budget until it is admitted then ({@link RunAdmission#readmit}).
 */
public enum RunStatus {
    ADMITTED, QUEUED, COOLING, RUNNING, SUCCEEDED, FAILED, PARTIALLY_FAILED,
    RATE_LIMITED, COOLDOWN, FENCED, DENIED, SKIPPED_OFFLINE, DROPPED_CONCURRENCY;

    /** Statuses of a run that holds a concurrency slot. */
    public static final Set<String> ACTIVE = Set.of("admitted", "queued", "running");

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static RunStatus fromWire(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
