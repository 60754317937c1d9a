package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class ExactlyOnceTest {

    private final DeskFixture desk = new DeskFixture();
    private final ExactlyOnce underTest = new ExactlyOnce(desk.store, desk.executors, new GateSettlement(desk.store,
            desk.audit, desk.journal, desk.resolutions, desk.json, desk.clock), desk.journal, desk.transactions,
            desk.clock);

    @Test
    void anApprovedGateBeginsExecutingAndTheTimelineSaysSo() {
        Gate gate = desk.stored(GateState.APPROVED);

        assertThat(underTest.begin(gate.id())).isTrue();

        assertThat(desk.reread(gate).state()).isEqualTo(GateState.EXECUTING);
        assertThat(desk.reread(gate).timeline().executingAt()).isEqualTo(DeskFixture.NOW);
        assertThat(desk.timeline()).extracting(Journal.Entry::kind, Journal.Entry::text).containsExactly(
                org.assertj.core.groups.Tuple.tuple("gate.executing", "Executing inbox.post on the trusted side"));
    }

    @Test
    void aGateThatIsNoLongerApprovedDoesNotBeginExecuting() {
        Gate gate = desk.stored(GateState.DENIED);

        assertThat(underTest.begin(gate.id())).isFalse();

        assertThat(desk.reread(gate).state()).isEqualTo(GateState.DENIED);
        assertThat(desk.timeline()).isEmpty();
    }

    @Test
    void executingRunsTheExecutorOnceAndSettlesTheGate() {
        Gate gate = desk.stored(GateState.EXECUTING);

        assertThat(underTest.execute(gate.id())).isEmpty();

        assertThat(desk.executor.calls).containsExactly("execute");
        assertThat(desk.reread(gate).state()).isEqualTo(GateState.EXECUTED);
    }

    @Test
    void aDeviceCommandSaysHowLongItsProcessWaitsForTheAnswer() {
        Gate gate = desk.stored(GateState.EXECUTING);
        desk.executor.executions.add(new Execution.InFlight(Duration.ofSeconds(11)));

        assertThat(underTest.execute(gate.id())).contains(Duration.ofSeconds(11));
        assertThat(desk.reread(gate).state()).isEqualTo(GateState.EXECUTING);
    }

    @Test
    void aGateNotExecutingIsNotExecuted() {
        Gate gate = desk.stored(GateState.APPROVED);

        assertThat(underTest.execute(gate.id())).isEmpty();

        assertThat(desk.executor.calls).isEmpty();
    }

    @Test
    void reconcilingSettlesFromTheTraceAndNeverActsASecondTime() {
        Gate gate = desk.stored(GateState.EXECUTING);
        desk.executor.traces.add(new Execution.Done("{\"outcome\":\"completed\"}"));

        assertThat(underTest.reconcile(gate.id())).isTrue();

        assertThat(desk.executor.calls).containsExactly("reconcile");
        assertThat(desk.reread(gate).state()).isEqualTo(GateState.EXECUTED);
        assertThat(desk.transactions.commits).isEqualTo(1);
    }

    @Test
    void reconcilingAGateWhoseAttemptNeverLeftExecutesItNow() {
        Gate gate = desk.stored(GateState.EXECUTING);

        assertThat(underTest.reconcile(gate.id())).isTrue();

        assertThat(desk.executor.calls).containsExactly("reconcile", "execute");
        assertThat(desk.reread(gate).state()).isEqualTo(GateState.EXECUTED);
    }

    @Test
    void aReconciledCommandStillUnansweredAfterItsWaitIsNotSettled() {
        Gate gate = desk.stored(GateState.EXECUTING);
        desk.executor.executions.add(new Execution.InFlight(Duration.ofSeconds(2)));
        desk.executor.traces.add(new Execution.NotStarted());
        desk.executor.traces.add(new Execution.InFlight(Duration.ofSeconds(1)));

        assertThat(underTest.reconcile(gate.id())).isFalse();

        assertThat(desk.executor.calls).containsExactly("reconcile", "execute", "await PT2S", "reconcile");
        assertThat(desk.reread(gate).state()).isEqualTo(GateState.EXECUTING);
    }

    @Test
    void aGateThatIsNotExecutingOrDoesNotExistIsAlreadySettled() {
        Gate gate = desk.stored(GateState.EXECUTED);

        assertThat(underTest.reconcile(gate.id())).isTrue();
        assertThat(underTest.reconcile("no-such-gate")).isTrue();

        assertThat(desk.executor.calls).isEmpty();
    }

    @Test
    void aDevicesAnswerToAnExecutingGateSettlesIt() {
        Gate gate = desk.stored(GateState.EXECUTING);
        desk.executor.traces.add(new Execution.Done("{\"outcome\":\"completed\"}"));

        assertThat(underTest.onDeviceAnswer(gate.id())).isTrue();

        assertThat(desk.reread(gate).state()).isEqualTo(GateState.EXECUTED);
    }

    @Test
    void aDevicesAnswerToASettledGateIsAGatesButMovesNothing() {
        Gate gate = desk.stored(GateState.FAILED);

        assertThat(underTest.onDeviceAnswer(gate.id())).isTrue();

        assertThat(desk.executor.calls).isEmpty();
    }

    @Test
    void anAnswerToAnInvocationOfNoGateIsNotAGates() {
        assertThat(underTest.onDeviceAnswer("a-run-invocation")).isFalse();
    }

    @Test
    void anAutoGateAnotherNodeIsExecutingIsNotThisNodesToReconcile() {
        Gate ours = desk.stored(GateState.EXECUTING, true);
        Gate theirs = desk.stored(GateState.EXECUTING, true);
        Gate carriedByItsProcess = desk.stored(GateState.EXECUTING);
        desk.jdbc.sql("update rz_gate set executing_node = '2' where id in (?, ?)")
                .params(theirs.id(), carriedByItsProcess.id()).update();

        assertThat(underTest.executing()).extracting(Gate::id).contains(ours.id(), carriedByItsProcess.id())
                .doesNotContain(theirs.id());
    }

    @Test
    void theNodeThatBeginsExecutingAGateIsItsExecutor() {
        Gate gate = desk.stored(GateState.APPROVED);

        underTest.begin(gate.id());

        assertThat(desk.jdbc.sql("select executing_node from rz_gate where id = ?").param(gate.id())
                .query(String.class).single()).isEqualTo("1");
    }

    @Test
    void theExecutingGatesAreThoseARestartMustLookAt() {
        Gate executing = desk.stored(GateState.EXECUTING);
        Gate pending = desk.stored(GateState.PENDING);

        assertThat(underTest.executing()).extracting(Gate::id).contains(executing.id()).doesNotContain(pending.id());
    }
}
