package dev.ringzero.kernel;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Run admission against an agent's frequency budgets. Only proactive work (events, schedules) is held
 * back: work a person asked for directly is never blocked by these, because budgets protect the person
 * from runaway automation, not from themselves.
 *
 * <ul>
 *   <li>{@code runsPerHour}: with that many runs already in the last hour, the next is eligible when the
 *       oldest of them leaves the window, one hour after it started. That is the earliest possibility; if
 *       the ceiling was lowered below the count, later runs must leave too.</li>
 *   <li>{@code cooldownSeconds}: eligible again {@code cooldownSeconds} after the last run started.</li>
 * </ul>
 * When both bind, the one that frees later is reported, since waiting out the other would not help;
 * on a tie, {@code runsPerHour}.
 */
public final class Budgets {

    static final Duration WINDOW = Duration.ofHours(1);

    private Budgets() {
    }

    /** Allow, or the binding {@link Verdict.OverBudget} with its next eligible time. */
    public static Verdict admit(Budget budget, BudgetUsage usage, boolean proactive, Instant now) {
        if (!proactive) {
            return Verdict.ALLOW;
        }
        return Stream.of(rateLimit(budget, usage, now), cooldown(budget, usage, now))
                .flatMap(Optional::stream)
                .reduce((rate, cool) -> cool.nextEligibleAt().isAfter(rate.nextEligibleAt()) ? cool : rate)
                .<Verdict>map(over -> over)
                .orElse(Verdict.ALLOW);
    }

    /** Proactive runs left this hour and the next time a proactive run may start. */
    public static BudgetLeft left(Budget budget, BudgetUsage usage, Instant now) {
        int runsLeft = Math.max(0, budget.runsPerHour() - usage.runsInLastHour());
        Instant next = admit(budget, usage, true, now) instanceof Verdict.OverBudget over ? over.nextEligibleAt() : now;
        return new BudgetLeft(runsLeft, next);
    }

    private static Optional<Verdict.OverBudget> rateLimit(Budget budget, BudgetUsage usage, Instant now) {
        if (usage.runsInLastHour() < budget.runsPerHour()) {
            return Optional.empty();
        }
        // an adapter that counts runs but lost the oldest: assume the window is full from now
        Instant freed = usage.oldestRunInWindow().map(oldest -> oldest.plus(WINDOW)).orElse(now.plus(WINDOW));
        return Optional.of(new Verdict.OverBudget(Budget.RUNS_PER_HOUR, latest(freed, now)));
    }

    private static Optional<Verdict.OverBudget> cooldown(Budget budget, BudgetUsage usage, Instant now) {
        return usage.lastRunAt()
                .map(last -> last.plusSeconds(budget.cooldownSeconds()))
                .filter(coolUntil -> coolUntil.isAfter(now))
                .map(coolUntil -> new Verdict.OverBudget(Budget.COOLDOWN_SECONDS, coolUntil));
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
