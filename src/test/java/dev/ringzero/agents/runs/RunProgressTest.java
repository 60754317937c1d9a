package dev.ringzero.agents.runs;

import static dev.ringzero.agents.runs.RunFixtures.AGENT;
import static dev.ringzero.agents.runs.RunFixtures.OWNER;
import static dev.ringzero.agents.runs.RunFixtures.T0;
import static dev.ringzero.agents.runs.RunFixtures.insertRun;
import static dev.ringzero.agents.runs.RunFixtures.runningWithActions;
import static dev.ringzero.agents.runs.RunFixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import dev.ringzero.agents.definition.AgentSpec.Concurrency;
import dev.ringzero.support.MovableClock;
import org.junit.jupiter.api.Test;

class RunProgressTest {

    private final RunStore runs = RunFixtures.store();
    private final RunFixtures.FakeAgents agents = new RunFixtures.FakeAgents()
            .with(AGENT, spec(Concurrency.SINGLE, 1, 30));
    private final MovableClock clock = new MovableClock(T0);
    private final RunProgress underTest = new RunProgress(runs, agents, ModelSessions.NONE, clock);

    @Test
    void aRunningRunWithAnUnsettledActionDispatchesItWithinItsTime() {
        runningWithActions(runs, "r1", T0, "display.show_text");
        clock.advance(Duration.ofSeconds(29));

        assertThat(underTest.next("r1")).isEqualTo(AgentRuns.Next.ACTION);
    }

    @Test
    void aRunWithActionsLeftTimesOutOnceItsMaxRunSecondsAreOver() {
        runningWithActions(runs, "r1", T0, "display.show_text");
        clock.advance(Duration.ofSeconds(30));

        assertThat(underTest.next("r1")).isEqualTo(AgentRuns.Next.TIMED_OUT);
    }

    @Test
    void aRunWhoseActionsAreAllSettledIsDone() {
        runningWithActions(runs, "r1", T0, "display.show_text");
        runs.actionEnded("r1", 0, "allow", "completed", null, null, T0);

        assertThat(underTest.next("r1")).isEqualTo(AgentRuns.Next.DONE);
    }

    @Test
    void aRunNoLongerRunningIsDoneWhateverIsLeft() {
        runningWithActions(runs, "r1", T0, "display.show_text");
        runs.end("r1", RunStatus.FENCED, "agent_disabled", T0);

        assertThat(underTest.next("r1")).isEqualTo(AgentRuns.Next.DONE);
    }

    @Test
    void theFirstActionWithoutAnOutcomeIsTheUnsettledOne() {
        runningWithActions(runs, "r1", T0, "display.show_text", "speaker.say", "display.clear");
        runs.actionEnded("r1", 0, "allow", "completed", null, null, T0);

        assertThat(RunProgress.unsettled(runs.actions("r1"))).map(RunStore.Action::index).contains(1);
    }

    @Test
    void theDeadlineCountsFromTheStartOrFromCreationForARunNeverStarted() {
        RunStore.Run started = new RunStore.Run("r1", AGENT, OWNER, 1, "invoke", null, null, false,
                RunStatus.RUNNING, null, T0, T0.plusSeconds(5), null);
        RunStore.Run queued = insertRun(runs, "r2", RunStatus.QUEUED, T0);

        assertThat(underTest.deadline(started)).isEqualTo(T0.plusSeconds(35));
        assertThat(underTest.deadline(queued)).isEqualTo(T0.plusSeconds(30));
    }

    @Test
    void aRunIsGivenAtLeastOneSecond() {
        agents.with(AGENT, spec(Concurrency.SINGLE, 1, 0));
        RunStore.Run run = insertRun(runs, "r1", RunStatus.RUNNING, T0);

        assertThat(underTest.deadline(run)).isEqualTo(T0.plusSeconds(1));
        assertThat(underTest.overtime(run)).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(underTest.overtime(run)).isTrue();
    }
}
