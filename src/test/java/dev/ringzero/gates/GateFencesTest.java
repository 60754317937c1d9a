package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import org.junit.jupiter.api.Test;

class GateFencesTest {

    private final DeskFixture desk = new DeskFixture();
    private final GateFences underTest = new GateFences(desk.store, desk.engine, desk.audit, desk.journal, desk.json,
            desk.clock);

    @Test
    void anAgentsPendingGatesEndFencedWithTheReasonAsTheirResult() {
        Gate pending = desk.stored(GateState.PENDING);

        assertThat(underTest.ofAgent(desk.agent, "the agent was disabled")).containsExactly(pending.id());

        Gate fenced = desk.reread(pending);
        assertThat(fenced.state()).isEqualTo(GateState.FENCED);
        assertThat(fenced.result()).isEqualTo("{\"outcome\":\"fenced\",\"reason\":\"the agent was disabled\"}");
        assertThat(desk.audit.ofGate(pending.id())).extracting(Audit.Entry::disposition, Audit.Entry::actor)
                .containsExactly(tuple("fenced", "system:fence"));
        assertThat(desk.timeline()).extracting(Journal.Entry::actor, Journal.Entry::text)
                .containsExactly(tuple("system", "Fenced: the agent was disabled"));
    }

    @Test
    void aFencedGatesReviewIsEndedButItsAgentIsNotWoken() {
        Gate pending = desk.stored(GateState.PENDING);

        underTest.ofAgent(desk.agent, "the agent was revised");

        assertThat(desk.engine.fenced).containsExactly(pending.id());
        assertThat(desk.resolved).isEmpty();
    }

    @Test
    void gatesAlreadyDecidedAreNotFenced() {
        Gate approved = desk.stored(GateState.APPROVED);
        Gate executing = desk.stored(GateState.EXECUTING);

        assertThat(underTest.ofAgent(desk.agent, "the agent was deleted")).isEmpty();

        assertThat(desk.reread(approved).state()).isEqualTo(GateState.APPROVED);
        assertThat(desk.reread(executing).state()).isEqualTo(GateState.EXECUTING);
        assertThat(desk.engine.fenced).isEmpty();
    }

    @Test
    void unpairingFencesTheGadgetsPendingGatesOnly() {
        Gate forDesk = desk.stored(GateState.PENDING);
        DeskFixture other = new DeskFixture();
        Gate elsewhere = other.stored(GateState.PENDING);
        String rover = "rover-" + java.util.UUID.randomUUID();
        other.jdbc.sql("update rz_gate set gadget_id = ? where id = ?").params(rover, elsewhere.id()).update();

        assertThat(underTest.ofGadget(rover, "the gadget was unpaired")).containsExactly(elsewhere.id());

        assertThat(desk.reread(forDesk).state()).isEqualTo(GateState.PENDING);
        assertThat(desk.reread(elsewhere).state()).isEqualTo(GateState.FENCED);
    }
}
