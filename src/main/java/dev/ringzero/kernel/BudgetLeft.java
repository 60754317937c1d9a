package dev.ringzero.kernel;

import java.time.Instant;
import java.util.Objects;

/**
 * What an agent's owner sees on the agent: proactive runs left in the current hour and when the next
 * proactive run may start ({@code now} when it may start now).
 */
public record BudgetLeft(int runsLeftThisHour, Instant nextEligibleAt) {

    public BudgetLeft {
        Objects.requireNonNull(nextEligibleAt, "nextEligibleAt");
    }
}
