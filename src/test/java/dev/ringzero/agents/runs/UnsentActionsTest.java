package dev.ringzero.agents.runs;

import static dev.ringzero.agents.runs.RunFixtures.T0;
import static dev.ringzero.agents.runs.RunFixtures.runningWithActions;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.ringzero.dispatch.Dispatcher;
import dev.ringzero.dispatch.Outcome;
import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.DenyReason;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.Subject;
import dev.ringzero.kernel.Verdict;
import dev.ringzero.support.MovableClock;
import org.junit.jupiter.api.Test;

class UnsentActionsTest {

    private final RunStore runs = RunFixtures.store();
    private final RunFixtures.FakeGates gates = new RunFixtures.FakeGates();
    private final MovableClock clock = new MovableClock(T0.plusSeconds(1));
    private final UnsentActions underTest = new UnsentActions(runs, gates, RunFixtures.JSON, clock);

    private final RunStore.Run run = runningWithActions(runs, "r1", T0, "speaker.say", "display.show_text");

    private ActionRequest request(RunStore.Action action) {
        return new ActionRequest(new Subject.AgentRun(run.ownerId(), run.agentId(), run.revision(), run.id()),
                action.gadgetId(), action.command(), Map.of("text", "hi"), Priority.PROACTIVE, clock.instant());
    }

    private RunStore.Action action(int index) {
        return runs.actions("r1").get(index);
    }

    private static Dispatcher.NotSent denied(DenyReason reason) {
        return new Dispatcher.NotSent(new Outcome.Denied(reason.wire(), "detail"), new Verdict.Deny(reason, "detail"));
    }

    @Test
    void aGatedActionFilesAGateWithTheFrozenParamsAndTheRunGoesOn() {
        underTest.settle(run, action(0), request(action(0)),
                new Dispatcher.NotSent(new Outcome.Denied("gate", null), new Verdict.Gate("rule-7")));

        assertThat(gates.calls).containsExactly("file r1 desk-1 speaker.say rule-7");
        assertThat(gates.filedParams).containsExactly(Map.of("text", "hi"));
        assertThat(action(0).verdict()).isEqualTo("gate");
        assertThat(action(0).outcome()).isEqualTo("gated");
        assertThat(action(0).result()).isEqualTo("{\"gate\":\"gate-1\"}");
        assertThat(runs.find("r1").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
    }

    @Test
    void aRefusedActionIsRecordedDeniedWithItsReasonAndAudited() {
        underTest.settle(run, action(0), request(action(0)), denied(DenyReason.QUIET_HOURS));

        assertThat(action(0).verdict()).isEqualTo("deny");
        assertThat(action(0).outcome()).isEqualTo("denied");
        assertThat(action(0).errorCode()).isEqualTo("quiet_hours");
        assertThat(action(0).endedAt()).isEqualTo(clock.instant());
        assertThat(gates.calls).containsExactly("refused r1 speaker.say quiet_hours");
        assertThat(runs.find("r1").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
    }

    @Test
    void anOutcomeThatIsNoDenialIsRecordedByItsStatus() {
        underTest.settle(run, action(0), request(action(0)),
                new Dispatcher.NotSent(new Outcome.Offline(), new Verdict.Deny(DenyReason.OFFLINE, "offline")));

        assertThat(action(0).errorCode()).isEqualTo("offline");
        assertThat(gates.calls).containsExactly("refused r1 speaker.say offline");
    }

    @Test
    void aFencingRefusalEndsTheRunFenced() {
        underTest.settle(run, action(0), request(action(0)), denied(DenyReason.REVISION_STALE));

        RunStore.Run fenced = runs.find("r1").orElseThrow();
        assertThat(fenced.status()).isEqualTo(RunStatus.FENCED);
        assertThat(fenced.reason()).isEqualTo("revision_stale");
        assertThat(fenced.endedAt()).isEqualTo(clock.instant());
    }

    @Test
    void aRunNoLongerRunningDeniesEachActionItHasNotSettled() {
        runs.actionEnded("r1", 0, "allow", "completed", null, null, T0);
        runs.end("r1", RunStatus.FENCED, "agent_disabled", T0);

        underTest.denyRemaining(runs.find("r1").orElseThrow());

        assertThat(runs.actions("r1")).extracting(RunStore.Action::outcome).containsExactly("completed", "denied");
        assertThat(action(1).verdict()).isEqualTo("deny");
        assertThat(action(1).errorCode()).isEqualTo("run_fenced");
        assertThat(gates.calls).isEmpty();
    }
}
