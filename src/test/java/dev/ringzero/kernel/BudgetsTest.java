package dev.ringzero.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link Budgets}: proactive work is held to runsPerHour and the cooldown; work a person asked for never is. */
class BudgetsTest {

    private static final Instant NOW = Instant.parse("2025-06-02T10:00:00Z");
    private static final Budget BUDGET = new Budget(5, 60, 30, 8, 4000);

    private static BudgetUsage runs(int count, Instant oldest, Instant last) {
        return new BudgetUsage(count, Optional.ofNullable(oldest), Optional.ofNullable(last));
    }

    @Test
    void oneRunBelowRunsPerHourIsAdmitted() {
        BudgetUsage four = runs(4, NOW.minusSeconds(3000), NOW.minusSeconds(600));

        assertThat(Budgets.admit(BUDGET, four, true, NOW)).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void reachingRunsPerHourHoldsProactiveWorkUntilTheOldestRunLeavesTheHour() {
        BudgetUsage five = runs(5, NOW.minusSeconds(3000), NOW.minusSeconds(600));

        assertThat(Budgets.admit(BUDGET, five, true, NOW))
                .isEqualTo(new Verdict.OverBudget(Budget.RUNS_PER_HOUR, NOW.plusSeconds(600)));
    }

    @Test
    void aLoweredCeilingStillAnswersTheEarliestPossibleTime() {
        BudgetUsage seven = runs(7, NOW.minusSeconds(3500), NOW.minusSeconds(600));

        assertThat(Budgets.admit(BUDGET, seven, true, NOW))
                .isEqualTo(new Verdict.OverBudget(Budget.RUNS_PER_HOUR, NOW.plusSeconds(100)));
    }

    @Test
    void aFullWindowWithoutItsOldestRunWaitsAWholeHour() {
        BudgetUsage five = runs(5, null, NOW.minusSeconds(600));

        assertThat(Budgets.admit(BUDGET, five, true, NOW))
                .isEqualTo(new Verdict.OverBudget(Budget.RUNS_PER_HOUR, NOW.plus(Duration.ofHours(1))));
    }

    @Test
    void aRunWithinTheCooldownWaitsUntilItEnds() {
        BudgetUsage justRan = runs(1, NOW.minusSeconds(20), NOW.minusSeconds(20));

        assertThat(Budgets.admit(BUDGET, justRan, true, NOW))
                .isEqualTo(new Verdict.OverBudget(Budget.COOLDOWN_SECONDS, NOW.plusSeconds(40)));
    }

    @Test
    void theCooldownEndsExactlyCooldownSecondsAfterTheLastRun() {
        BudgetUsage ranAMinuteAgo = runs(1, NOW.minusSeconds(60), NOW.minusSeconds(60));

        assertThat(Budgets.admit(BUDGET, ranAMinuteAgo, true, NOW)).isEqualTo(Verdict.ALLOW);
        assertThat(Budgets.admit(BUDGET, ranAMinuteAgo, true, NOW.minusMillis(1))).isInstanceOf(Verdict.OverBudget.class);
    }

    @Test
    void aZeroCooldownNeverHoldsBack() {
        Budget noCooldown = new Budget(5, 0, 30, 8, 4000);

        assertThat(Budgets.admit(noCooldown, runs(1, NOW, NOW), true, NOW)).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void whenBothBindTheLaterOneIsReported() {
        BudgetUsage fullAndJustRan = runs(5, NOW.minusSeconds(3590), NOW.minusSeconds(10));

        assertThat(Budgets.admit(BUDGET, fullAndJustRan, true, NOW))
                .isEqualTo(new Verdict.OverBudget(Budget.COOLDOWN_SECONDS, NOW.plusSeconds(50)));
    }

    @Test
    void whenBothFreeAtOnceRunsPerHourIsReported() {
        BudgetUsage tie = runs(5, NOW.minusSeconds(3570), NOW.minusSeconds(30));

        assertThat(Budgets.admit(BUDGET, tie, true, NOW))
                .isEqualTo(new Verdict.OverBudget(Budget.RUNS_PER_HOUR, NOW.plusSeconds(30)));
    }

    @Test
    void workAPersonAskedForIsNeverHeldBack() {
        BudgetUsage exhausted = runs(50, NOW.minusSeconds(100), NOW.minusSeconds(1));

        assertThat(Budgets.admit(BUDGET, exhausted, false, NOW)).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void budgetLeftShowsRunsLeftAndThatTheNextRunMayStartNow() {
        assertThat(Budgets.left(BUDGET, runs(2, NOW.minusSeconds(1000), NOW.minusSeconds(300)), NOW))
                .isEqualTo(new BudgetLeft(3, NOW));
    }

    @Test
    void budgetLeftShowsWhenTheNextRunMayStart() {
        assertThat(Budgets.left(BUDGET, runs(5, NOW.minusSeconds(3000), NOW.minusSeconds(300)), NOW))
                .isEqualTo(new BudgetLeft(0, NOW.plusSeconds(600)));
        assertThat(Budgets.left(BUDGET, runs(1, NOW.minusSeconds(15), NOW.minusSeconds(15)), NOW))
                .isEqualTo(new BudgetLeft(4, NOW.plusSeconds(45)));
    }

    @Test
    void budgetLeftIsNeverNegative() {
        assertThat(Budgets.left(BUDGET, runs(9, NOW.minusSeconds(3000), NOW.minusSeconds(300)), NOW).runsLeftThisHour())
                .isZero();
    }

    @Test
    void aBudgetMustAllowAtLeastOneRunOfAtLeastOneSecond() {
        assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> new Budget(0, 60, 30, 8, 4000));
        assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> new Budget(5, 60, 0, 8, 4000));
        assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> new Budget(5, -1, 30, 8, 4000));
        assertThatExceptionOfType(IllegalArgumentException.class)
                .isThrownBy(() -> new BudgetUsage(-1, Optional.empty(), Optional.empty()));
    }
}
