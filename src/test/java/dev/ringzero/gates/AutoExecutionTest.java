package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.ringzero.Refusal;
import org.junit.jupiter.api.Test;

class AutoExecutionTest {

    private final DeskFixture desk = new DeskFixture();
    private final AutoExecution underTest = new AutoExecution(new GateProposals(desk.executors, desk.json),
            desk.executors, desk.store, desk.journal, new GateSettlement(desk.store, desk.audit, desk.journal,
                    desk.resolutions, desk.json, desk.clock), desk.transactions, desk.clock);

    @Test
    void theGateIsCommittedExecutingBeforeTheExecutorRuns() {
        List<String> seen = new ArrayList<>();
        desk.executor.beforeExecuting = gate -> seen.add(desk.transactions.commits + " commit(s), "
                + desk.reread(gate).state().wire());

        underTest.execute(desk.filing("{\"text\":\"hi\"}", "r-1"));

        assertThat(seen).containsExactly("1 commit(s), executing");
    }

    @Test
    void whatRanEndsExecutedAndIsAuditedAsAutoExecutedByItsRule() {
        Gate gate = underTest.execute(desk.filing("{\"text\":\"hi\"}", "r-1"));

        assertThat(gate.state()).isEqualTo(GateState.EXECUTED);
        assertThat(gate.auto()).isTrue();
        assertThat(gate.timeline().decidedAt()).isEqualTo(DeskFixture.NOW);
        assertThat(desk.audit.ofGate(gate.id())).extracting(Audit.Entry::disposition, Audit.Entry::actor)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("auto-executed", "trust-rule:r-1"));
        assertThat(desk.transactions.commits).isEqualTo(2);
    }

    @Test
    void theTimelineSaysItRanWithoutAskingAndWhy() {
        Gate gate = underTest.execute(desk.filing("{\"text\":\"hi\"}", null));

        assertThat(desk.timeline()).extracting(Journal.Entry::kind, Journal.Entry::text).startsWith(
                org.assertj.core.groups.Tuple.tuple("action.auto",
                        "inbox.post runs without asking (default for inbox.post)"));
        assertThat(desk.timeline().get(0).gateId()).isEqualTo(gate.id());
    }

    @Test
    void aDeviceCommandInFlightIsAwaitedThenSettledFromItsTrace() {
        desk.executor.executions.add(new Execution.InFlight(Duration.ofSeconds(3)));
        desk.executor.traces.add(new Execution.Done("{\"outcome\":\"completed\"}"));

        Gate gate = underTest.execute(desk.filing("{}", null));

        assertThat(desk.executor.calls).containsExactly("execute", "await PT3S", "reconcile");
        assertThat(gate.state()).isEqualTo(GateState.EXECUTED);
        assertThat(gate.result()).isEqualTo("{\"outcome\":\"completed\"}");
    }

    @Test
    void aDeviceCommandStillUnansweredAfterItsWaitStaysExecuting() {
        desk.executor.executions.add(new Execution.InFlight(Duration.ofSeconds(3)));
        desk.executor.traces.add(new Execution.InFlight(Duration.ofSeconds(1)));

        assertThat(underTest.execute(desk.filing("{}", null)).state()).isEqualTo(GateState.EXECUTING);
    }

    @Test
    void aProposalThatCannotRunRecordsNothingAndRunsNothing() {
        assertThatExceptionOfType(Refusal.class).isThrownBy(() -> underTest.execute(desk.filing("{\"invalid\":1}", null)));

        assertThat(desk.executor.calls).isEmpty();
        assertThat(desk.store.list(desk.owner, null, 10)).isEmpty();
        assertThat(desk.transactions.commits).isZero();
    }
}
