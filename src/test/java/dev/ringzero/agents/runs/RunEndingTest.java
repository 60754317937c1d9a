package dev.ringzero.agents.runs;

import static dev.ringzero.agents.runs.RunFixtures.AGENT;
import static dev.ringzero.agents.runs.RunFixtures.T0;
import static dev.ringzero.agents.runs.RunFixtures.insertRun;
import static dev.ringzero.agents.runs.RunFixtures.runningWithActions;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.support.MovableClock;
import org.junit.jupiter.api.Test;

class RunEndingTest {

    private final RunStore runs = RunFixtures.store();
    private final MovableClock clock = new MovableClock(T0.plusSeconds(9));
    // queued: the one concurrency mode under which a run waits for its turn
    private final RunFixtures.FakeAgents agents = new RunFixtures.FakeAgents().with(AGENT,
            RunFixtures.spec(AgentSpec.Concurrency.QUEUED, 1, 30));
    private final RunEnding underTest = new RunEnding(runs, agents, clock);

    private static List<RunStore.Action> outcomes(String... outcomes) {
        return Arrays.stream(outcomes).map(outcome -> new RunStore.Action(0, "desk-1", "display.show_text", "{}",
                "allow", outcome, null, null, null, T0, null)).toList();
    }

    @Test
    void aRunWhoseActionsAllDidTheirPartSucceeds() {
        assertThat(RunEnding.statusOf(outcomes("completed", "accepted", "gated", "dropped_stale")))
                .isEqualTo(RunStatus.SUCCEEDED);
        assertThat(RunEnding.statusOf(List.of())).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void aRunWithNoActionThatDidItsPartFails() {
        assertThat(RunEnding.statusOf(outcomes("denied", "unknown", "failed"))).isEqualTo(RunStatus.FAILED);
    }

    @Test
    void aRunWithSomeActionsFailedOrLeftUnsettledPartiallyFails() {
        assertThat(RunEnding.statusOf(outcomes("completed", "offline"))).isEqualTo(RunStatus.PARTIALLY_FAILED);
        assertThat(RunEnding.statusOf(outcomes("completed", null))).isEqualTo(RunStatus.PARTIALLY_FAILED);
    }

    @Test
    void finishingEndsTheRunAndHandsTheTurnToTheOldestQueuedRun() {
        runningWithActions(runs, "r1", T0, "display.show_text");
        runs.actionEnded("r1", 0, "allow", "completed", null, null, T0);
        insertRun(runs, "r2", RunStatus.QUEUED, T0.plusSeconds(1));
        insertRun(runs, "r3", RunStatus.QUEUED, T0.plusSeconds(2));

        assertThat(underTest.finish("r1")).contains("r2");

        RunStore.Run finished = runs.find("r1").orElseThrow();
        assertThat(finished.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(finished.endedAt()).isEqualTo(clock.instant());
    }

    @Test
    void aRunOfARevisionThatDidNotQueueHandsNothingOnAndTakesNoLock() {
        RunFixtures.FakeAgents revisedToQueued = new RunFixtures.FakeAgents().with(AGENT, RunFixtures.spec())
                .revised(AGENT, 2, RunFixtures.spec(AgentSpec.Concurrency.QUEUED, 1, 30));
        runningWithActions(runs, "r1", T0, "display.show_text"); // revision 1, single, still going
        runs.actionEnded("r1", 0, "allow", "completed", null, null, T0);
        // not what admission does now (it queues nothing behind r1), but a queued run it might find
        runs.insert(new RunStore.Run("r2", AGENT, RunFixtures.OWNER, 2, "gadget.event", "{}", "event-r2", true,
                RunStatus.QUEUED, null, T0.plusSeconds(1), null, null), true);

        assertThat(new RunEnding(runs, revisedToQueued, clock).finish("r1")).isEmpty();
        assertThat(runs.find("r1").orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(revisedToQueued.locked).as("no lock: the common rules run's finish").isEmpty();
    }

    @Test
    void aQueuedRunGetsItsTurnWhileARunOfAnOlderRevisionThatDidNotQueueStillGoes() {
        RunFixtures.FakeAgents revisedToQueued = new RunFixtures.FakeAgents().with(AGENT, RunFixtures.spec())
                .revised(AGENT, 2, RunFixtures.spec(AgentSpec.Concurrency.QUEUED, 1, 30));
        insertRun(runs, "r0", RunStatus.RUNNING, T0); // revision 1: hands nothing on
        runs.insert(new RunStore.Run("r1", AGENT, RunFixtures.OWNER, 2, "gadget.event", "{}", "event-r1", true,
                RunStatus.RUNNING, null, T0.plusSeconds(1), T0.plusSeconds(1), null), true);
        runs.insert(new RunStore.Run("r2", AGENT, RunFixtures.OWNER, 2, "gadget.event", "{}", "event-r2", true,
                RunStatus.QUEUED, null, T0.plusSeconds(2), null, null), true);

        assertThat(new RunEnding(runs, revisedToQueued, clock).finish("r1")).contains("r2");
        assertThat(revisedToQueued.locked).containsExactly(AGENT);
    }

    @Test
    void aCommandTheKernelRefusedAnLlmRunsModelFailsOnlyARulesRun() {
        runningWithActions(runs, "r1", T0, "display.show_text", "chassis.drive");
        runs.actionEnded("r1", 0, "allow", "completed", null, null, T0);
        runs.actionEnded("r1", 1, "deny", "denied", "not_allowed", null, T0);
        runningWithActions(runs, "r2", T0, "display.show_text", "chassis.drive");
        runs.actionEnded("r2", 0, "allow", "completed", null, null, T0);
        runs.actionEnded("r2", 1, "deny", "denied", "not_allowed", null, T0);
        var rules = RunFixtures.spec();
        RunFixtures.FakeAgents llmAgents = new RunFixtures.FakeAgents().with(AGENT, new dev.ringzero.agents.definition
                .AgentSpec(rules.name(), null, rules.gadgets(), dev.ringzero.agents.definition.AgentSpec.Kind.LLM,
                rules.triggers(), List.of(), "be brief", null, null, null, 0, true, null, false));

        underTest.finish("r1");
        new RunEnding(runs, llmAgents, clock).finish("r2");

        assertThat(runs.find("r1").orElseThrow().status()).isEqualTo(RunStatus.PARTIALLY_FAILED);
        assertThat(runs.find("r2").orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void finishingHoldsTheAgentsAdmissionLockSoNoQueuedRunIsMissed() {
        runningWithActions(runs, "r1", T0, "display.show_text");

        underTest.finish("r1");

        assertThat(agents.locked).containsExactly(AGENT);
    }

    @Test
    void noQueuedRunGetsATurnWhileAnotherRunStillGoes() {
        runningWithActions(runs, "r1", T0, "display.show_text");
        insertRun(runs, "r2", RunStatus.RUNNING, T0.plusSeconds(1));
        insertRun(runs, "r3", RunStatus.QUEUED, T0.plusSeconds(2));

        assertThat(underTest.finish("r1")).isEmpty();
        assertThat(runs.find("r1").orElseThrow().status()).as("its one action left unsettled").isEqualTo(RunStatus.FAILED);
    }

    @Test
    void aRunOutOfTimeEndsFailedWithMaxRunSeconds() {
        insertRun(runs, "r1", RunStatus.RUNNING, T0);

        underTest.timedOut("r1");

        RunStore.Run run = runs.find("r1").orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.reason()).isEqualTo("max_run_seconds");
    }

    @Test
    void anAbandonedRunEndsFailedOnlyIfItWasStillActive() {
        insertRun(runs, "r1", RunStatus.RUNNING, T0);
        insertRun(runs, "r2", RunStatus.SUCCEEDED, T0);

        assertThat(underTest.abandon("r1", "model_replaced")).isTrue();
        assertThat(underTest.abandon("r2", "model_replaced")).isFalse();

        assertThat(runs.find("r1").orElseThrow().reason()).isEqualTo("model_replaced");
        assertThat(runs.find("r2").orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void aChangedPolicyFencesOnlyTheAgentsQueuedRuns() {
        insertRun(runs, "r1", RunStatus.RUNNING, T0);
        insertRun(runs, "r2", RunStatus.QUEUED, T0.plusSeconds(1));

        assertThat(underTest.fenceQueued(AGENT, "agent disabled")).containsExactly("r2");

        assertThat(runs.find("r1").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        RunStore.Run fenced = runs.find("r2").orElseThrow();
        assertThat(fenced.status()).isEqualTo(RunStatus.FENCED);
        assertThat(fenced.reason()).isEqualTo("agent disabled");
    }
}
