package dev.ringzero.kernel;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What an agent has used, counted durably by the adapter so a restart resets nothing: runs started in
 * the hour before now (a run at {@code t} counts while now is before {@code t + 1 h}), the oldest of
 * those, and the latest run start whenever it was.
 */
public record BudgetUsage(int runsInLastHour, Optional<Instant> oldestRunInWindow, Optional<Instant> lastRunAt) {

    /** No runs yet. */
    public static final BudgetUsage NONE = new BudgetUsage(0, Optional.empty(), Optional.empty());

    public BudgetUsage {
        if (runsInLastHour < 0) {
            throw new IllegalArgumentException("runsInLastHour cannot be negative");
        }
        oldestRunInWindow = Objects.requireNonNullElse(oldestRunInWindow, Optional.empty());
        lastRunAt = Objects.requireNonNullElse(lastRunAt, Optional.empty());
    }
}
