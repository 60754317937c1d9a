package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.groups.Tuple.tuple;

import dev.ringzero.Refusal;
import org.junit.jupiter.api.Test;

class GateDecisionsTest {

    private final DeskFixture desk = new DeskFixture();
    private final GateDecisions underTest = new GateDecisions(desk.store, desk.engine, desk.audit, desk.journal,
            desk.resolutions, desk.clock);

    @Test
    void anApprovalRecordsWhoDecidedAndWakesNobodyYet() {
        Gate gate = desk.stored(GateState.PENDING);

        underTest.record(gate.id(), true, "alice", "go ahead");

        Gate approved = desk.reread(gate);
        assertThat(approved.state()).isEqualTo(GateState.APPROVED);
        assertThat(approved.decision().decidedBy()).isEqualTo("alice");
        assertThat(approved.decision().note()).isEqualTo("go ahead");
        assertThat(approved.timeline().decidedAt()).isEqualTo(DeskFixture.NOW);
        assertThat(desk.audit.ofGate(gate.id())).extracting(Audit.Entry::disposition, Audit.Entry::actor)
                .containsExactly(tuple("approved", "alice"));
        assertThat(desk.timeline()).extracting(Journal.Entry::kind, Journal.Entry::text)
                .containsExactly(tuple("gate.approved", "Approved by alice: go ahead"));
        assertThat(desk.resolved).isEmpty();
    }

    @Test
    void aDenialResolvesTheGateSoItsAgentCanBeWoken() {
        Gate gate = desk.stored(GateState.PENDING);

        underTest.record(gate.id(), false, "alice", " ");

        assertThat(desk.reread(gate).state()).isEqualTo(GateState.DENIED);
        assertThat(desk.timeline()).extracting(Journal.Entry::text).containsExactly("Denied by alice");
        assertThat(desk.resolved).extracting(Gate::id, Gate::state).containsExactly(tuple(gate.id(), GateState.DENIED));
    }

    @Test
    void aSecondDecisionIsAConflictAndChangesNothing() {
        Gate gate = desk.stored(GateState.PENDING);
        underTest.record(gate.id(), false, "alice", null);

        assertThatExceptionOfType(Refusal.class).isThrownBy(() -> underTest.record(gate.id(), true, "bob", null))
                .satisfies(refusal -> {
                    assertThat(refusal.kind()).isEqualTo(Refusal.Kind.CONFLICT);
                    assertThat(refusal.slug()).isEqualTo("gate-not-pending");
                    assertThat(refusal.getMessage()).isEqualTo("gate " + gate.id() + " is denied");
                });
        assertThat(desk.reread(gate).decision().decidedBy()).isEqualTo("alice");
        assertThat(desk.dispositions(gate)).containsExactly("denied");
    }

    @Test
    void theOwnerDecidesByCompletingTheReviewAndGetsTheGateAsTheEngineLeftIt() {
        Gate gate = desk.stored(GateState.PENDING);
        desk.engine.onReview = reviewed -> underTest.record(reviewed.id(), true, desk.owner, null);

        Gate decided = underTest.decideAsOwner(desk.owner, gate.id(), true, null);

        assertThat(desk.engine.reviews).containsExactly(desk.owner + " approves " + gate.id());
        assertThat(decided.state()).isEqualTo(GateState.APPROVED);
    }

    @Test
    void anotherOwnersGateIsNotFoundAndItsReviewIsNeverTouched() {
        Gate gate = desk.stored(GateState.PENDING);

        assertThatExceptionOfType(Refusal.class)
                .isThrownBy(() -> underTest.decideAsOwner("mallory", gate.id(), true, null))
                .satisfies(refusal -> assertThat(refusal.kind()).isEqualTo(Refusal.Kind.NOT_FOUND));
        assertThat(desk.engine.reviews).isEmpty();
    }

    @Test
    void aGateNoLongerPendingIsAConflictWithoutAskingTheEngine() {
        Gate gate = desk.stored(GateState.EXPIRED);

        assertThatExceptionOfType(Refusal.class)
                .isThrownBy(() -> underTest.decideAsOwner(desk.owner, gate.id(), true, null))
                .satisfies(refusal -> assertThat(refusal.getMessage()).endsWith(" is expired"));
        assertThat(desk.engine.reviews).isEmpty();
    }

    @Test
    void aReviewSomeoneElseCompletedFirstIsAConflictNamingTheGatesStateNow() {
        Gate gate = desk.stored(GateState.PENDING);
        desk.engine.onReview = reviewed -> desk.store.decide(reviewed.id(), GateState.DENIED, "bob", null,
                DeskFixture.NOW);
        desk.engine.reviewStillOpen = false;

        assertThatExceptionOfType(Refusal.class)
                .isThrownBy(() -> underTest.decideAsOwner(desk.owner, gate.id(), true, null))
                .satisfies(refusal -> {
                    assertThat(refusal.kind()).isEqualTo(Refusal.Kind.CONFLICT);
                    assertThat(refusal.getMessage()).isEqualTo("gate " + gate.id() + " is denied");
                });
    }
}
