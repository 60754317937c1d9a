package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.ringzero.Refusal;
import org.junit.jupiter.api.Test;

class GateFilingTest {

    private final DeskFixture desk = new DeskFixture();
    private final GateFiling underTest = new GateFiling(new GateProposals(desk.executors, desk.json), desk.store,
            desk.engine, desk.audit, desk.journal, desk.json, desk.clock);

    @Test
    void aFiledGateIsPendingAndCarriesItsProcessInstance() {
        Gate gate = underTest.file(desk.filing("{\"text\":\"hi\"}", null));

        assertThat(gate.state()).isEqualTo(GateState.PENDING);
        assertThat(gate.processInstanceId()).isEqualTo("pi-" + gate.id());
        assertThat(gate.payload()).isEqualTo("{\"text\":\"hi\"}");
        assertThat(gate.auto()).isFalse();
        assertThat(gate.timeline().filedAt()).isEqualTo(DeskFixture.NOW);
    }

    @Test
    void theProcessStartsWithTheReviewFormOfTheFrozenPayload() {
        Gate gate = underTest.file(desk.filing("{\"text\":\"hi\"}", null));

        assertThat(desk.engine.started).extracting(Gate::id).containsExactly(gate.id());
        assertThat(desk.engine.forms.get(0)).containsEntry("payloadSha256", gate.proposal().payloadSha256())
                .containsEntry("intent", DeskFixture.INTENT);
    }

    @Test
    void filingIsAuditedAsGatedByTheRuleThatSentIt() {
        Gate byRule = underTest.file(desk.filing("{}", "r-1"));
        Gate byDefault = underTest.file(desk.filing("{}", null));

        assertThat(desk.audit.ofGate(byRule.id())).extracting(Audit.Entry::disposition, Audit.Entry::actor,
                Audit.Entry::detail).containsExactly(org.assertj.core.groups.Tuple.tuple("gated", "trust-rule:r-1",
                "to say hello"));
        assertThat(desk.audit.ofGate(byDefault.id())).extracting(Audit.Entry::actor).containsExactly("default");
    }

    @Test
    void theAgentsTimelineSaysWhatWasProposedAndWhyItWaits() {
        Gate byRule = underTest.file(desk.filing("{\"text\":\"hi\"}", "r-1"));
        Gate byDefault = underTest.file(desk.filing("{}", null));

        assertThat(desk.timeline()).extracting(Journal.Entry::kind, Journal.Entry::gateId, Journal.Entry::text)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("gate.filed", byRule.id(),
                                "Proposed inbox.post; it waits for the owner (trust rule r-1)"),
                        org.assertj.core.groups.Tuple.tuple("gate.filed", byDefault.id(),
                                "Proposed inbox.post; it waits for the owner (default for inbox.post)"));
        assertThat(desk.timeline().get(0).data()).isEqualTo("{\"text\":\"hi\"}");
    }

    @Test
    void aProposalThatCannotRunFilesNothingAndStartsNoProcess() {
        assertThatExceptionOfType(Refusal.class).isThrownBy(() -> underTest.file(desk.filing("{\"invalid\":1}", null)));

        assertThat(desk.engine.started).isEmpty();
        assertThat(desk.store.list(desk.owner, null, 10)).isEmpty();
        assertThat(desk.timeline()).isEmpty();
    }
}
