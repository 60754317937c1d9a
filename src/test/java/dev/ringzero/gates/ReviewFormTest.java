package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ReviewFormTest {

    private static final Instant FILED = Instant.parse("2026-03-01T09:00:00Z");

    private final ReviewForm underTest = new ReviewForm(GateProposals.canonical(new ObjectMapper()));

    private static Gate gate(String agentId, String runId, String ruleId, String rationale) {
        return Gate.pending("g-1", new Gate.Proposal("alice", agentId, runId, "inbox.post", null,
                "{\"text\":\"hello\"}", "ab12", rationale), ruleId, FILED);
    }

    @Test
    void anAgentsGateNamesTheAgentAndItsRunAndTheDefaultThatAsks() {
        Map<String, Object> variables = underTest.variables(gate("agent-1", "run-1", null, "it was shaken"));

        assertThat(variables).containsEntry("intent", "inbox.post")
                .containsEntry("requestedBy", "agent agent-1, run run-1")
                .containsEntry("rationale", "it was shaken")
                .containsEntry("whyAsked", "No trust rule of yours matches, and inbox.post waits for you by default.")
                .containsEntry("payloadSha256", "ab12")
                .containsEntry("filedAt", "2026-03-01T09:00:00Z");
    }

    @Test
    void theOwnersOwnGateIsRequestedByThemAndARuleSaysItSentIt() {
        Map<String, Object> variables = underTest.variables(gate(null, null, "r-7", null));

        assertThat(variables).containsEntry("requestedBy", "you (direct)")
                .containsEntry("rationale", "")
                .containsEntry("whyAsked", "Your trust rule r-7 sends this to you.");
    }

    @Test
    void aRunlessAgentGateNamesOnlyTheAgent() {
        assertThat(underTest.variables(gate("agent-1", null, null, null)))
                .containsEntry("requestedBy", "agent agent-1");
    }

    @Test
    void thePayloadIsShownPrettyPrinted() {
        assertThat(underTest.variables(gate(null, null, null, null)).get("payloadText"))
                .isEqualTo("{\n  \"text\" : \"hello\"\n}");
    }
}
