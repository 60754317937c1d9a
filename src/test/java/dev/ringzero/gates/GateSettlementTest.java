package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class GateSettlementTest {

    private final DeskFixture desk = new DeskFixture();
    private final GateSettlement underTest = new GateSettlement(desk.store, desk.audit, desk.journal,
            desk.resolutions, desk.json, desk.clock);

    @Test
    void aDoneExecutionEndsExecutedWithItsResultAndWakesTheAgent() {
        Gate gate = desk.stored(GateState.EXECUTING);

        assertThat(underTest.apply(gate, new Execution.Done("{\"outcome\":\"posted\"}"))).isEmpty();

        Gate ended = desk.reread(gate);
        assertThat(ended.state()).isEqualTo(GateState.EXECUTED);
        assertThat(ended.result()).isEqualTo("{\"outcome\":\"posted\"}");
        assertThat(ended.timeline().finishedAt()).isEqualTo(DeskFixture.NOW);
        assertThat(desk.dispositions(gate)).containsExactly("executed");
        assertThat(desk.resolved).extracting(Gate::id, Gate::state)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(gate.id(), GateState.EXECUTED));
    }

    @Test
    void anAutoExecutionThatRanIsAuditedAsAutoExecuted() {
        Gate gate = desk.stored(GateState.EXECUTING, true);

        underTest.apply(gate, new Execution.Done("{\"outcome\":\"posted\"}"));

        assertThat(desk.dispositions(gate)).containsExactly("auto-executed");
    }

    @Test
    void aFailedExecutionEndsFailedAndTheJournalSaysWhy() {
        Gate gate = desk.stored(GateState.EXECUTING);

        underTest.apply(gate, new Execution.Failed("{\"outcome\":\"unknown\",\"reason\":\"no answer\"}"));

        assertThat(desk.reread(gate).state()).isEqualTo(GateState.FAILED);
        assertThat(desk.dispositions(gate)).containsExactly("failed");
        assertThat(desk.timeline()).extracting(Journal.Entry::kind, Journal.Entry::text).containsExactly(
                org.assertj.core.groups.Tuple.tuple("gate.failed", "Failed: inbox.post (unknown: no answer)"));
    }

    @Test
    void theJournalNamesTheOutcomeAndItsMessageOfAnExecutedGate() {
        Gate gate = desk.stored(GateState.EXECUTING);

        underTest.apply(gate, new Execution.Done("{\"outcome\":\"posted\",\"message\":\"in the inbox\"}"));

        assertThat(desk.timeline()).extracting(Journal.Entry::text)
                .containsExactly("Executed inbox.post (posted: in the inbox)");
    }

    @Test
    void aResultThatIsNoJsonObjectAddsNothingToTheJournalLine() {
        Gate gate = desk.stored(GateState.EXECUTING);

        underTest.apply(gate, new Execution.Done("\"plain\""));

        assertThat(desk.timeline()).extracting(Journal.Entry::text).containsExactly("Executed inbox.post");
    }

    @Test
    void anAttemptThatNeverStartedEndsFailedAsNotStarted() {
        Gate gate = desk.stored(GateState.EXECUTING);

        underTest.apply(gate, new Execution.NotStarted());

        assertThat(desk.reread(gate).state()).isEqualTo(GateState.FAILED);
        assertThat(desk.reread(gate).result()).isEqualTo("{\"outcome\":\"failed\",\"error\":\"not_started\"}");
    }

    @Test
    void aCommandInFlightStaysExecutingAndSaysHowLongToWait() {
        Gate gate = desk.stored(GateState.EXECUTING);

        assertThat(underTest.apply(gate, new Execution.InFlight(Duration.ofSeconds(6)))).contains(Duration.ofSeconds(6));

        assertThat(desk.reread(gate).state()).isEqualTo(GateState.EXECUTING);
        assertThat(desk.dispositions(gate)).isEmpty();
        assertThat(desk.resolved).isEmpty();
    }

    @Test
    void aGateSomeoneElseSettledFirstIsNeitherMovedNorRecordedAgain() {
        Gate gate = desk.stored(GateState.EXECUTING);
        underTest.apply(gate, new Execution.Done("{\"outcome\":\"posted\"}"));

        underTest.apply(gate, new Execution.Failed("{\"outcome\":\"late\"}"));

        assertThat(desk.reread(gate).state()).isEqualTo(GateState.EXECUTED);
        assertThat(desk.dispositions(gate)).containsExactly("executed");
        assertThat(desk.timeline()).hasSize(1);
        assertThat(desk.resolved).hasSize(1);
    }
}
