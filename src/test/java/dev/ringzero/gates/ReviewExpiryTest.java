package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import org.junit.jupiter.api.Test;

class ReviewExpiryTest {

    private final DeskFixture desk = new DeskFixture();
    private final ReviewExpiry underTest = new ReviewExpiry(desk.store, desk.audit, desk.journal, desk.resolutions,
            desk.clock);

    @Test
    void aGateNobodyAnsweredExpiresOnTheRecordAndWakesItsAgent() {
        Gate gate = desk.stored(GateState.PENDING);

        underTest.expire(gate.id());

        assertThat(desk.reread(gate).state()).isEqualTo(GateState.EXPIRED);
        assertThat(desk.reread(gate).timeline().finishedAt()).isEqualTo(DeskFixture.NOW);
        assertThat(desk.audit.ofGate(gate.id())).extracting(Audit.Entry::disposition, Audit.Entry::actor,
                Audit.Entry::detail).containsExactly(tuple("expired", "system:timer", "nobody answered in time"));
        assertThat(desk.timeline()).extracting(Journal.Entry::actor, Journal.Entry::text)
                .containsExactly(tuple("desk", "Expired: nobody answered in time"));
        assertThat(desk.resolved).extracting(Gate::state).containsExactly(GateState.EXPIRED);
    }

    @Test
    void aGateDecidedBeforeItsTimerFiredDoesNotExpire() {
        Gate gate = desk.stored(GateState.APPROVED);

        underTest.expire(gate.id());

        assertThat(desk.reread(gate).state()).isEqualTo(GateState.APPROVED);
        assertThat(desk.dispositions(gate)).isEmpty();
        assertThat(desk.resolved).isEmpty();
    }
}
