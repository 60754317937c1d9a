package dev.ringzero.agents.runs;

import static dev.ringzero.agents.runs.RunFixtures.AGENT;
import static dev.ringzero.agents.runs.RunFixtures.OWNER;
import static dev.ringzero.agents.runs.RunFixtures.T0;
import static dev.ringzero.agents.runs.RunFixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.ringzero.agents.definition.AgentSpec.Concurrency;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.dispatch.Dispatcher;
import dev.ringzero.dispatch.Outcome;
import dev.ringzero.kernel.Claim;
import dev.ringzero.kernel.DenyReason;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.Subject;
import dev.ringzero.kernel.Verdict;
import dev.ringzero.support.MovableClock;
import org.junit.jupiter.api.Test;

class ActionDispatchTest {

    private final RunStore runs = RunFixtures.store();
    private final RunFixtures.FakeAgents agents = new RunFixtures.FakeAgents()
            .with(AGENT, spec(Concurrency.SINGLE, 1, 30));
    private final MovableClock clock = new MovableClock(T0.plusSeconds(2));
    private final RunFixtures.FakeSpeakers floor = new RunFixtures.FakeSpeakers();
    private final RunFixtures.FakeLink link = new RunFixtures.FakeLink();
    private final RunFixtures.FakeGates gates = new RunFixtures.FakeGates();
    private final ActionDispatch underTest = new ActionDispatch(runs, new RunProgress(runs, agents, ModelSessions.NONE, clock),
            new SpeakerTurns(floor, runs, clock), link, new UnsentActions(runs, gates, RunFixtures.JSON, clock),
            new PlatformActions(runs, agents, RunFixtures.kernel(), gates, 64 * 1024, RunFixtures.JSON, clock),
            new RunPreparation(runs, agents, RunFixtures.JSON, clock), RunFixtures.JSON, clock, false);

    private void running(boolean proactive, String... commands) {
        runs.insert(new RunStore.Run("r1", AGENT, OWNER, 1, "gadget.event", null, null, proactive, RunStatus.RUNNING,
                null, T0, T0, null), true);
        runs.insertActions("r1", java.util.Arrays.stream(commands)
                .map(command -> new RunStore.NewAction("desk-1", command, "{\"text\":\"hi\"}")).toList(), T0);
    }

    private RunStore.Action action(int index) {
        return runs.actions("r1").get(index);
    }

    @Test
    void withDetachingOnOnlyARulesRunsLastCommandLeavesItsAnswerToTheRecord() {
        ActionDispatch detaching = new ActionDispatch(runs, new RunProgress(runs, agents, ModelSessions.NONE, clock),
                new SpeakerTurns(floor, runs, clock), link, new UnsentActions(runs, gates, RunFixtures.JSON, clock),
                new PlatformActions(runs, agents, RunFixtures.kernel(), gates, 64 * 1024, RunFixtures.JSON, clock),
                new RunPreparation(runs, agents, RunFixtures.JSON, clock), RunFixtures.JSON, clock, true);
        running(true, "display.show_text", "display.show_text");
        link.dispatch = new Dispatcher.Sent("inv-1", T0.plusSeconds(7));

        AgentRuns.DispatchStep first = detaching.dispatch("r1", "execution-1");
        assertThat(first.detached()).as("the next action waits for this answer").isFalse();
        assertThat(runs.overdue(T0.plusSeconds(600), 10)).isEmpty();
        assertThat(runs.waitFor("r1", "inv-1")).as("its wait, named by the record").contains("execution-1");
        runs.actionEnded("r1", 0, "allow", "completed", null, null, T0.plusSeconds(3));
        assertThat(runs.waitFor("r1", "inv-1")).as("settled: nothing waits for it any more").isEmpty();
        link.dispatch = new Dispatcher.Sent("inv-2", T0.plusSeconds(7));
        AgentRuns.DispatchStep last = detaching.dispatch("r1", "execution-1");

        assertThat(last).isEqualTo(new AgentRuns.DispatchStep(true, false, "inv-2", T0.plusSeconds(8),
                T0.plusSeconds(30), true));
        assertThat(runs.overdue(T0.plusSeconds(7), 10)).isEmpty();
        assertThat(runs.overdue(T0.plusSeconds(8), 10)).containsExactly(new RunStore.Overdue("r1", "inv-2"));
        assertThat(runs.waitFor("r1", "inv-2")).as("detached: no process waits for it").isEmpty();
    }

    @Test
    void aSentActionIsRecordedAndWaitsForItsAnswerUntilTheDevicesDeadlineAndAGrace() {
        running(true, "display.show_text");
        link.dispatch = new Dispatcher.Sent("inv-1", T0.plusSeconds(7));

        AgentRuns.DispatchStep step = underTest.dispatch("r1", "execution-1");

        assertThat(step).isEqualTo(new AgentRuns.DispatchStep(true, false, "inv-1", T0.plusSeconds(8),
                T0.plusSeconds(30)));
        assertThat(action(0).invocationId()).isEqualTo("inv-1");
        assertThat(action(0).verdict()).isEqualTo("allow");
        assertThat(action(0).outcome()).isNull();
        assertThat(link.sent).singleElement().satisfies(request -> {
            assertThat(request.subject()).isEqualTo(new Subject.AgentRun(OWNER, AGENT, 1, "r1"));
            assertThat(request.command()).isEqualTo("display.show_text");
            assertThat(request.params()).isEqualTo(Map.of("text", "hi"));
            assertThat(request.priority()).isEqualTo(Priority.PROACTIVE);
            assertThat(request.at()).isEqualTo(clock.instant());
        });
    }

    @Test
    void aRunSomeoneAskedForDispatchesWithExplicitPriority() {
        running(false, "display.show_text");
        link.dispatch = new Dispatcher.Sent("inv-1", T0.plusSeconds(7));

        underTest.dispatch("r1", "execution-1");

        assertThat(link.sent).extracting(request -> request.priority()).containsExactly(Priority.EXPLICIT);
    }

    @Test
    void theAnswerIsNeverAwaitedPastTheRunsOwnDeadline() {
        assertThat(ActionDispatch.answerDeadline(T0.plusSeconds(5), T0.plusSeconds(10))).isEqualTo(T0.plusSeconds(6));
        assertThat(ActionDispatch.answerDeadline(T0.plusSeconds(9), T0.plusSeconds(10)))
                .isEqualTo(T0.plusSeconds(10));
    }

    @Test
    void aSentSoundHoldsTheSpeakerWhileItPlays() {
        running(true, "speaker.say");
        floor.claim = new Claim.Granted("run:r1:0");
        link.dispatch = new Dispatcher.Sent("inv-1", T0.plusSeconds(7));

        underTest.dispatch("r1", "execution-1");

        assertThat(floor.calls).containsExactly("request desk-1 run:r1:0 PROACTIVE " + T0,
                "playing inv-1 desk-1 run:r1:0");
    }

    @Test
    void aSoundBehindAnotherWaitsForItsTurnAtMostUntilTheRunsDeadline() {
        running(true, "speaker.say");
        floor.claim = new Claim.Queued("run:r1:0", 1);

        AgentRuns.DispatchStep step = underTest.dispatch("r1", "execution-1");

        assertThat(step).isEqualTo(new AgentRuns.DispatchStep(false, true, null, null, T0.plusSeconds(30)));
        assertThat(link.sent).isEmpty();
        assertThat(action(0).outcome()).isNull();
    }

    @Test
    void aSoundWhoseTurnCameTooLateIsDroppedNotSent() {
        running(true, "speaker.say");
        floor.claim = new Claim.DroppedStale("run:r1:0");

        AgentRuns.DispatchStep step = underTest.dispatch("r1", "execution-1");

        assertThat(step).isEqualTo(AgentRuns.DispatchStep.settled());
        assertThat(link.sent).isEmpty();
        assertThat(action(0).outcome()).isEqualTo("dropped_stale");
    }

    @Test
    void aSoundTheKernelRefusesGivesItsTurnBackAndIsRecordedDenied() {
        running(true, "speaker.say");
        floor.claim = new Claim.Granted("run:r1:0");
        link.dispatch = new Dispatcher.NotSent(new Outcome.Denied("quiet_hours", null),
                new Verdict.Deny(DenyReason.QUIET_HOURS, null));

        AgentRuns.DispatchStep step = underTest.dispatch("r1", "execution-1");

        assertThat(step).isEqualTo(AgentRuns.DispatchStep.settled());
        assertThat(floor.calls).containsExactly("request desk-1 run:r1:0 PROACTIVE " + T0, "release desk-1 run:r1:0");
        assertThat(action(0).outcome()).isEqualTo("denied");
        assertThat(gates.calls).containsExactly("refused r1 speaker.say quiet_hours");
    }

    @Test
    void aGatedActionIsSettledGatedAndTheRunGoesOn() {
        running(true, "display.show_text", "display.clear");
        link.dispatch = new Dispatcher.NotSent(new Outcome.Denied("gate", null), new Verdict.Gate(null));

        AgentRuns.DispatchStep step = underTest.dispatch("r1", "execution-1");

        assertThat(step).isEqualTo(AgentRuns.DispatchStep.settled());
        assertThat(runs.actions("r1")).extracting(RunStore.Action::outcome).containsExactly("gated", null);
    }

    @Test
    void aRunNoLongerRunningSendsNothingDeniesTheRestAndHandsBackItsSpeakerTurn() {
        running(true, "speaker.say", "display.show_text");
        runs.end("r1", RunStatus.FENCED, "agent_disabled", T0);

        AgentRuns.DispatchStep step = underTest.dispatch("r1", "execution-1");

        assertThat(step).isEqualTo(AgentRuns.DispatchStep.settled());
        assertThat(link.sent).isEmpty();
        assertThat(floor.calls).containsExactly("release desk-1 run:r1:0");
        assertThat(runs.actions("r1")).extracting(RunStore.Action::errorCode).containsExactly("run_fenced",
                "run_fenced");
    }

    @Test
    void aRunWokenAfterItsMaxRunSecondsSendsNothingAndLeavesItsActionsForTheTimeOut() {
        running(true, "speaker.say");
        clock.advance(Duration.ofSeconds(28));

        AgentRuns.DispatchStep step = underTest.dispatch("r1", "execution-1");

        assertThat(step).isEqualTo(AgentRuns.DispatchStep.settled());
        assertThat(link.sent).isEmpty();
        assertThat(floor.calls).containsExactly("release desk-1 run:r1:0");
        assertThat(action(0).outcome()).isNull();
    }

    @Test
    void aRunWithNothingLeftToDispatchIsSettled() {
        running(true, "display.show_text");
        runs.actionEnded("r1", 0, "allow", "completed", null, null, T0);

        assertThat(underTest.dispatch("r1", "execution-1")).isEqualTo(AgentRuns.DispatchStep.settled());
        assertThat(link.sent).isEmpty();
        assertThat(List.copyOf(floor.calls)).isEmpty();
    }

    private void runningWith(AgentSpec spec) {
        agents.with(AGENT, spec);
        runs.insert(new RunStore.Run("r1", AGENT, OWNER, 1, "gadget.event", null, null, true, RunStatus.RUNNING,
                null, T0, T0, null), true);
        runs.insertActions("r1", spec.actions().stream().map(action -> new RunStore.NewAction(action.gadget(),
                action.command(), dev.ringzero.StoredJson.write(RunFixtures.JSON, action.params()))).toList(), T0);
    }

    private static AgentSpec.Action increment() {
        return new AgentSpec.Action(null, "state.increment", Map.of("key", "count"));
    }

    @Test
    void aStateWriteIsSettledAtOnceAndNothingGoesToTheDevice() {
        runningWith(RunFixtures.spec(increment()));

        AgentRuns.DispatchStep step = underTest.dispatch("r1", "execution-1");

        assertThat(step.sent()).isFalse();
        assertThat(action(0).outcome()).isEqualTo("completed");
        assertThat(action(0).result()).isEqualTo("{\"stateVersion\":1}");
        assertThat(agents.storedStates.get(AGENT)).isEqualTo("{\"count\":1}");
        assertThat(link.sent).isEmpty();
    }

    @Test
    void aStateWriteThatLosesTheRaceIsAppliedToTheStateTheOtherRunLeft() {
        runningWith(RunFixtures.spec(increment()));
        agents.conflicts = 2;

        underTest.dispatch("r1", "execution-1");

        assertThat(action(0).outcome()).isEqualTo("completed");
        assertThat(agents.versions.get(AGENT)).isEqualTo(3);
        assertThat(action(0).result()).isEqualTo("{\"stateVersion\":3}");
    }

    @Test
    void aStateWriteThatNeverWinsFailsWithStateConflict() {
        runningWith(RunFixtures.spec(increment()));
        agents.conflicts = PlatformActions.MAX_ATTEMPTS;

        underTest.dispatch("r1", "execution-1");

        assertThat(action(0).outcome()).isEqualTo("failed");
        assertThat(action(0).errorCode()).isEqualTo("state_conflict");
    }

    @Test
    void aStateWriteOfARevisedAgentIsFencedAndEndsTheRun() {
        runningWith(RunFixtures.spec(increment()));
        runs.insert(new RunStore.Run("r2", AGENT, OWNER, 2, "gadget.event", null, null, true, RunStatus.RUNNING,
                null, T0, T0, null), true);
        runs.insertActions("r2", List.of(new RunStore.NewAction(null, "state.increment", "{\"key\":\"count\"}")), T0);

        underTest.dispatch("r2", "execution-1");

        assertThat(runs.actions("r2").get(0).outcome()).isEqualTo("denied");
        assertThat(runs.find("r2").orElseThrow().status()).isEqualTo(RunStatus.FENCED);
        assertThat(agents.storedStates).isEmpty();
    }

    @Test
    void aCommandAfterAStateWriteIsRenderedFromTheStateThatWriteLeft() {
        runningWith(RunFixtures.spec(increment(),
                new AgentSpec.Action("desk-1", "display.show_text", Map.of("text", "shake {{state.count}}"))));
        link.dispatch = new Dispatcher.Sent("inv-1", T0.plusSeconds(7));

        underTest.dispatch("r1", "execution-1");
        underTest.dispatch("r1", "execution-1");

        assertThat(link.sent).singleElement()
                .satisfies(request -> assertThat(request.params()).isEqualTo(Map.of("text", "shake 1")));
        assertThat(action(1).params()).isEqualTo("{\"text\":\"shake 1\"}");
    }

    @Test
    void anIntentAfterAStateWriteIsFiledWithTheStateThatWriteLeft() {
        runningWith(RunFixtures.spec(increment(),
                new AgentSpec.Action(null, "email.send", Map.of("subject", "shaken {{state.count}} times"))));
        gates.intentAnswer = new GateDesk.Gated("gate-9");

        underTest.dispatch("r1", "execution-1");
        underTest.dispatch("r1", "execution-1");

        assertThat(gates.calls).containsExactly("intent r1 email.send {subject=shaken 1 times}");
        assertThat(action(1).params()).isEqualTo("{\"subject\":\"shaken 1 times\"}");
    }

    @Test
    void anIntentGoesToTheDeskAndTheRunGoesOnWhateverItSays() {
        runningWith(RunFixtures.spec(new AgentSpec.Action(null, "email.send", Map.of("to", "a@example.org")),
                new AgentSpec.Action(null, "webhook.post", Map.of("url", "https://hooks.example.org/x")),
                new AgentSpec.Action(null, "email.send", Map.of("to", "b@example.org"))));

        gates.intentAnswer = new GateDesk.Gated("gate-9");
        underTest.dispatch("r1", "execution-1");
        gates.intentAnswer = new GateDesk.Accepted("gate-10");
        underTest.dispatch("r1", "execution-1");
        gates.intentAnswer = new GateDesk.Refused("trust_deny", "a rule says no");
        underTest.dispatch("r1", "execution-1");

        assertThat(runs.actions("r1")).extracting(RunStore.Action::outcome, RunStore.Action::result)
                .containsExactly(tuple("gated", "{\"gate\":\"gate-9\"}"), tuple("accepted", "{\"gate\":\"gate-10\"}"),
                        tuple("denied", "{\"message\":\"a rule says no\"}"));
        assertThat(gates.calls).containsExactly("intent r1 email.send {to=a@example.org}",
                "intent r1 webhook.post {url=https://hooks.example.org/x}", "intent r1 email.send {to=b@example.org}");
        assertThat(link.sent).isEmpty();
    }
}
