package dev.ringzero.agents.runs;

import static dev.ringzero.agents.runs.RunFixtures.AGENT;
import static dev.ringzero.agents.runs.RunFixtures.T0;
import static dev.ringzero.agents.runs.RunFixtures.insertRun;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;

import dev.ringzero.kernel.BudgetUsage;
import org.junit.jupiter.api.Test;

/**
 * The budget check reads the agent's minute counters (changelog 010): a counted run counts from
 * its admission until an hour after the end of its minute, never less than an hour; runs that
 * were never counted (ended before running) count for nothing.
 */
class BudgetMinutesTest {

    private final RunStore store = RunFixtures.store();

    @Test
    void aRunCountsForAnHourAfterTheEndOfItsMinuteAndTheCooldownReadsItsExactAdmission() {
        insertRun(store, "r1", RunStatus.RUNNING, T0);
        insertRun(store, "r2", RunStatus.RUNNING, T0.plusSeconds(30));
        insertRun(store, "r3", RunStatus.RUNNING, T0.plus(Duration.ofMinutes(10)));
        insertRun(store, "not-counted", RunStatus.COOLDOWN, T0.plus(Duration.ofMinutes(11)));

        BudgetUsage soon = store.usage(AGENT, T0.plus(Duration.ofMinutes(12)));
        assertThat(soon.runsInLastHour()).isEqualTo(3);
        assertThat(soon.oldestRunInWindow()).contains(T0.plus(Duration.ofMinutes(1)));
        assertThat(soon.lastRunAt()).contains(T0.plus(Duration.ofMinutes(10)));

        // the 10:00 minute's runs count until 11:01: at least an hour each, at most a minute more
        assertThat(store.usage(AGENT, T0.plus(Duration.ofMinutes(60)).plusSeconds(59)).runsInLastHour()).isEqualTo(3);
        BudgetUsage later = store.usage(AGENT, T0.plus(Duration.ofMinutes(61)));
        assertThat(later.runsInLastHour()).isEqualTo(1);
        assertThat(later.oldestRunInWindow()).contains(T0.plus(Duration.ofMinutes(11)));
        assertThat(store.usage(AGENT, T0.plus(Duration.ofMinutes(71))).runsInLastHour()).isZero();
        assertThat(store.usage(AGENT, T0.plus(Duration.ofMinutes(71))).oldestRunInWindow()).isEqualTo(Optional.empty());
    }

    @Test
    void aCoolingRunCountsFromItsReadmissionNotFromItsArrival() {
        insertRun(store, "cooling", RunStatus.COOLING, T0);
        assertThat(store.usage(AGENT, T0.plusSeconds(10)).runsInLastHour()).isZero();

        assertThat(store.readmitted("cooling", AGENT, new AgentRuns.Admission(RunStatus.ADMITTED, null,
                java.util.List.of()), T0.plus(Duration.ofMinutes(2)))).isTrue();

        BudgetUsage usage = store.usage(AGENT, T0.plus(Duration.ofMinutes(3)));
        assertThat(usage.runsInLastHour()).isEqualTo(1);
        assertThat(usage.lastRunAt()).contains(T0.plus(Duration.ofMinutes(2)));
        assertThat(store.usage(AGENT, T0.plus(Duration.ofMinutes(62))).runsInLastHour()).isEqualTo(1);
    }

    @Test
    void pruningDropsOnlyCountersNoWindowReads() {
        insertRun(store, "old", RunStatus.RUNNING, T0);
        insertRun(store, "new", RunStatus.RUNNING, T0.plus(Duration.ofMinutes(90)));

        assertThat(store.pruneBudgetMinutes(T0.plus(Duration.ofMinutes(30)))).isEqualTo(1);

        assertThat(store.usage(AGENT, T0.plus(Duration.ofMinutes(91))).runsInLastHour()).isEqualTo(1);
    }
}
