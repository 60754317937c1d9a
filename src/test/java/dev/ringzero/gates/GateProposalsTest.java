package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.Refusal;
import dev.ringzero.accounts.Tokens;
import org.junit.jupiter.api.Test;

class GateProposalsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final DeskFixture.FakeExecutor inbox = new DeskFixture.FakeExecutor("inbox.post");
    private final GateProposals underTest = new GateProposals(new IntentExecutors(List.of(inbox)), JSON);

    private GateService.Filing filing(String intent, String payload) throws Exception {
        JsonNode tree = payload == null ? null : JSON.readTree(payload);
        return new GateService.Filing("alice", "agent-1", "run-1", intent, "desk-1", tree, "because", "rule-1");
    }

    @Test
    void thePayloadIsFrozenWithSortedKeysSoTheSamePayloadAlwaysHashesTheSame() throws Exception {
        Gate.Proposal one = underTest.freeze(filing("inbox.post", "{\"text\":\"hi\",\"b\":{\"z\":1,\"a\":2}}"));
        Gate.Proposal other = underTest.freeze(filing("inbox.post", "{\"b\":{\"a\":2,\"z\":1},\"text\":\"hi\"}"));

        assertThat(one.payload()).isEqualTo("{\"b\":{\"a\":2,\"z\":1},\"text\":\"hi\"}");
        assertThat(other.payload()).isEqualTo(one.payload());
        assertThat(one.payloadSha256()).isEqualTo(Tokens.sha256(one.payload()));
    }

    @Test
    void theProposalKeepsWhoAskedWhatAndWhy() throws Exception {
        Gate.Proposal proposal = underTest.freeze(filing("inbox.post", "{\"text\":\"hi\"}"));

        assertThat(proposal).isEqualTo(new Gate.Proposal("alice", "agent-1", "run-1", "inbox.post", "desk-1",
                "{\"text\":\"hi\"}", Tokens.sha256("{\"text\":\"hi\"}"), "because"));
    }

    @Test
    void noPayloadIsFrozenAsAnEmptyObject() throws Exception {
        assertThat(underTest.freeze(filing("inbox.post", null)).payload()).isEqualTo("{}");
    }

    @Test
    void anIntentNoExecutorHandlesIsRefusedAsUnknown() {
        assertThatExceptionOfType(Refusal.class).isThrownBy(() -> underTest.freeze(filing("teleport", "{}")))
                .satisfies(refusal -> {
                    assertThat(refusal.kind()).isEqualTo(Refusal.Kind.INVALID);
                    assertThat(refusal.slug()).isEqualTo("unknown-intent");
                });
    }

    @Test
    void aPayloadItsExecutorRejectsIsRefusedBeforeItIsFrozen() {
        assertThatExceptionOfType(Refusal.class)
                .isThrownBy(() -> underTest.freeze(filing("inbox.post", "{\"invalid\":true}")))
                .satisfies(refusal -> assertThat(refusal.slug()).isEqualTo("invalid-payload"));
    }

    @Test
    void aRunsDeviceCommandIsProposedAsItsGadgetCommandAndParams() {
        JsonNode payload = underTest.deviceCommand("rover-1", "chassis.drive", Map.of("speed", 2));

        assertThat(payload.toString())
                .isEqualTo("{\"gadget\":\"rover-1\",\"command\":\"chassis.drive\",\"params\":{\"speed\":2}}");
    }
}
