package dev.ringzero.agents.runs;

import static dev.ringzero.agents.runs.RunFixtures.T0;
import static dev.ringzero.agents.runs.RunFixtures.runningWithActions;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ringzero.support.MovableClock;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ringzero.dispatch.Outcome;
import org.junit.jupiter.api.Test;

class RunSettlementTest {

    private final RunStore runs = RunFixtures.store();
    private final RunFixtures.FakeLink link = new RunFixtures.FakeLink();
    private final RunFixtures.FakeGates gates = new RunFixtures.FakeGates();
    private final RunFixtures.FakeSpeakers floor = new RunFixtures.FakeSpeakers();
    private final MovableClock clock = new MovableClock(T0.plusSeconds(4));
    private final RunSettlement underTest = new RunSettlement(runs, link, gates,
            new SpeakerTurns(floor, runs, clock), clock);

    private RunStore.Action sent(String command) {
        runningWithActions(runs, "r1", T0, command);
        runs.actionSent("r1", 0, "inv-1", null, false, "execution-1");
        return runs.actions("r1").get(0);
    }

    private void sentDetached(String command, java.time.Instant answerBy) {
        runningWithActions(runs, "r1", T0, command);
        runs.actionSent("r1", 0, "inv-1", answerBy, true, null);
    }

    @Test
    void aDetachedCommandsAnswerSettlesItFromTheRecordOnce() {
        sentDetached("display.show_text", T0.plusSeconds(9));

        boolean settled = underTest.settleUnawaited("r1", "inv-1",
                new AgentRuns.Answer("inv-1", "completed", null, "{\"ok\":true}"));
        boolean again = underTest.settleOverdue("r1", "inv-1");

        assertThat(settled).isTrue();
        assertThat(again).as("the sweep finds it settled").isFalse();
        RunStore.Action action = runs.actions("r1").get(0);
        assertThat(action.outcome()).isEqualTo("completed");
        assertThat(action.result()).isEqualTo("{\"ok\":true}");
        assertThat(gates.calls).containsExactly("auto r1 display.show_text completed");
        assertThat(runs.overdue(T0.plusSeconds(60), 10)).isEmpty();
    }

    @Test
    void anOverdueDetachedCommandIsUnknownAndListedOnlyOnceItsDeadlinePassed() {
        sentDetached("display.show_text", T0.plusSeconds(9));

        assertThat(runs.overdue(T0.plusSeconds(8), 10)).isEmpty();
        assertThat(runs.overdue(T0.plusSeconds(9), 10)).containsExactly(new RunStore.Overdue("r1", "inv-1"));
        assertThat(underTest.settleOverdue("r1", "inv-1")).isTrue();

        assertThat(link.asked).containsExactly("inv-1");
        assertThat(runs.actions("r1").get(0).outcome()).isEqualTo("unknown");
        assertThat(runs.overdue(T0.plusSeconds(60), 10)).isEmpty();
        assertThat(underTest.settleUnawaited("r1", "inv-1", new AgentRuns.Answer("inv-1", "completed", null, null)))
                .as("a late answer changes nothing").isFalse();
        assertThat(runs.actions("r1").get(0).outcome()).isEqualTo("unknown");
    }

    @Test
    void anAwaitedCommandIsNeverSettledAsDetached() {
        sent("display.show_text");

        assertThat(underTest.settleUnawaited("r1", "inv-1", new AgentRuns.Answer("inv-1", "completed", null, null)))
                .isFalse();
        assertThat(runs.actions("r1").get(0).outcome()).isNull();
        assertThat(runs.overdue(T0.plusSeconds(600), 10)).isEmpty();
    }

    @Test
    void anAwaitedCommandIsWatchedByItsDeadlineUntilItsActionIsSettled() {
        runningWithActions(runs, "r1", T0, "display.show_text");
        runs.actionSent("r1", 0, "inv-1", T0.plusSeconds(9), false, "execution-1");

        assertThat(runs.overdue(T0.plusSeconds(600), 10)).as("not detached").isEmpty();
        assertThat(runs.overdueAwaited(T0.plusSeconds(8), 10)).isEmpty();
        assertThat(runs.overdueAwaited(T0.plusSeconds(9), 10)).containsExactly(new RunStore.Overdue("r1", "inv-1"));
        runs.awaitedBy("r1", "inv-1", T0.plusSeconds(14)); // a suspended run: looked at again later
        assertThat(runs.overdueAwaited(T0.plusSeconds(13), 10)).isEmpty();
        assertThat(runs.overdueAwaited(T0.plusSeconds(14), 10)).hasSize(1);

        underTest.settle("r1", null); // its wait woken with no answer

        assertThat(runs.actions("r1").get(0).outcome()).isEqualTo("unknown");
        assertThat(runs.overdueAwaited(T0.plusSeconds(600), 10)).as("settled: no longer watched").isEmpty();
        runs.awaitedBy("r1", "inv-1", T0.plusSeconds(20));
        assertThat(runs.overdueAwaited(T0.plusSeconds(600), 10)).as("a settled action is not watched again").isEmpty();
    }

    @Test
    void anAwaitedCommandWhoseWaitIsGoneIsNoLongerWatched() {
        runningWithActions(runs, "r1", T0, "display.show_text");
        runs.actionSent("r1", 0, "inv-1", T0.plusSeconds(9), false, "execution-1");

        runs.awaitedBy("r1", "inv-1", null);

        assertThat(runs.overdueAwaited(T0.plusSeconds(600), 10)).isEmpty();
        assertThat(runs.actions("r1").get(0).outcome()).as("the record is not settled by it").isNull();
    }

    @Test
    void theAnswerThatWokeTheRunSettlesTheActionItWaitsFor() {
        sent("speaker.say");

        underTest.settle("r1", new AgentRuns.Answer("inv-1", "completed", null, "{\"ok\":true}"));

        RunStore.Action action = runs.actions("r1").get(0);
        assertThat(action.outcome()).isEqualTo("completed");
        assertThat(action.result()).isEqualTo("{\"ok\":true}");
        assertThat(action.endedAt()).isEqualTo(clock.instant());
        assertThat(link.asked).as("the answer handed over is not read again").isEmpty();
        assertThat(gates.calls).containsExactly("auto r1 speaker.say completed");
        assertThat(floor.calls).containsExactly("ended inv-1");
    }

    @Test
    void aDeadlineWithoutAnAnswerSettlesTheActionUnknown() {
        sent("display.show_text");

        underTest.settle("r1", null);

        assertThat(link.asked).containsExactly("inv-1");
        assertThat(runs.actions("r1").get(0).outcome()).isEqualTo("unknown");
        assertThat(gates.calls).containsExactly("auto r1 display.show_text unknown");
    }

    @Test
    void anAnswerRecordedJustBeforeTheDeadlineCountsOverUnknown() {
        sent("display.show_text");
        link.afterWait.put("inv-1", new Outcome.Failed("inv-1", "busy", "try later"));

        underTest.settle("r1", null);

        RunStore.Action action = runs.actions("r1").get(0);
        assertThat(action.outcome()).isEqualTo("failed");
        assertThat(action.errorCode()).isEqualTo("busy");
    }

    @Test
    void anAnswerToAnotherInvocationDoesNotSettleThisOne() {
        sent("display.show_text");

        underTest.settle("r1", new AgentRuns.Answer("inv-0", "completed", null, null));

        assertThat(link.asked).containsExactly("inv-1");
        assertThat(runs.actions("r1").get(0).outcome()).isEqualTo("unknown");
    }

    @Test
    void aSoundAcceptedAndStillPlayingKeepsTheSpeaker() {
        sent("speaker.say");

        underTest.settle("r1", AgentRuns.Answer.of(new Outcome.Accepted("inv-1",
                JsonNodeFactory.instance.objectNode().put("state", "fetching"))));

        RunStore.Action action = runs.actions("r1").get(0);
        assertThat(action.outcome()).isEqualTo("accepted");
        assertThat(action.result()).isEqualTo("{\"state\":\"fetching\"}");
        assertThat(floor.calls).isEmpty();
    }

    @Test
    void anActionSettledMeanwhileOrNeverSentIsLeftAlone() {
        runningWithActions(runs, "r1", T0, "display.show_text");

        underTest.settle("r1", new AgentRuns.Answer("inv-1", "completed", null, null));

        assertThat(runs.actions("r1").get(0).outcome()).isNull();
        assertThat(gates.calls).isEmpty();
        assertThat(link.asked).isEmpty();
    }
}
