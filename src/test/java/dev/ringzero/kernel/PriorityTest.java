package dev.ringzero.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PriorityTest {

    @Test
    void theOrderIsInteractionThenApprovedGateThenExplicitThenProactive() {
        assertThat(Priority.values()).containsExactly(Priority.INTERACTION, Priority.APPROVED_GATE, Priority.EXPLICIT,
                Priority.PROACTIVE);
        assertThat(Priority.INTERACTION.outranks(Priority.APPROVED_GATE)).isTrue();
        assertThat(Priority.APPROVED_GATE.outranks(Priority.EXPLICIT)).isTrue();
        assertThat(Priority.EXPLICIT.outranks(Priority.PROACTIVE)).isTrue();
        assertThat(Priority.PROACTIVE.outranks(Priority.EXPLICIT)).isFalse();
        assertThat(Priority.EXPLICIT.outranks(Priority.EXPLICIT)).isFalse();
    }

    @Test
    void aSubjectCannotClaimMoreThanItsCeiling() {
        Subject run = new Subject.AgentRun("alice", "a", 1, "r");

        assertThat(Priority.INTERACTION.cappedAt(run.ceiling())).isEqualTo(Priority.EXPLICIT);
        assertThat(Priority.APPROVED_GATE.cappedAt(run.ceiling())).isEqualTo(Priority.EXPLICIT);
        assertThat(Priority.PROACTIVE.cappedAt(run.ceiling())).isEqualTo(Priority.PROACTIVE);
        assertThat(Priority.INTERACTION.cappedAt(new Subject.ApprovedGate("alice", "g").ceiling()))
                .isEqualTo(Priority.APPROVED_GATE);
        assertThat(Priority.INTERACTION.cappedAt(new Subject.Owner("alice").ceiling())).isEqualTo(Priority.INTERACTION);
    }

    @Test
    void onlyThePersonAndApprovedGatesAreExemptFromQuietHours() {
        assertThat(Priority.INTERACTION.exemptFromQuietHours()).isTrue();
        assertThat(Priority.APPROVED_GATE.exemptFromQuietHours()).isTrue();
        assertThat(Priority.EXPLICIT.exemptFromQuietHours()).isFalse();
        assertThat(Priority.PROACTIVE.exemptFromQuietHours()).isFalse();
    }

    @Test
    void theWireNameIsLowerCase() {
        assertThat(Priority.APPROVED_GATE.wire()).isEqualTo("approved_gate");
    }
}
