package dev.ringzero.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.agents.runs.RunStatus;
import dev.ringzero.support.Agents;
import dev.ringzero.support.OwnerWithDeskBotTest;
import org.awaitility.Awaitility;
import org.camunda.bpm.engine.RuntimeService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Cooldowns that wait (issue 21): under {@code concurrency: queued} a trigger that arrives in the
 * cooldown waits on the agent-run process's timer until its next eligible time, bounded by
 * {@code budget.cooldownWaitSeconds}, and then runs; beyond the bound it ends {@code cooldown};
 * disabling the agent fences a cooling run and its instance.
 */
class CooldownWaitTest extends OwnerWithDeskBotTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Autowired
    RuntimeService runtime;

    private String agent(int cooldownSeconds, int cooldownWaitSeconds) {
        return Agents.create(alice, """
                {"apiVersion":"ringzero/v1","name":"Bark, then rest","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"gadget.event","gadget":"%1$s","event":"shaken"}],
                 "actions":[{"gadget":"%1$s","command":"display.show_text","params":{"text":"woof"}}],
                 "allow":{"commands":["display.show_text"]},
                 "budget":{"runsPerHour":100,"cooldownSeconds":%2$d,"cooldownWaitSeconds":%3$d},
                 "concurrency":"queued"}
                """.formatted(bot.gadgetId(), cooldownSeconds, cooldownWaitSeconds));
    }

    private double peak = 2.0;

    /** A hard shake, each a little different: the same event within the window is one event. */
    private void shake() {
        peak += 0.1;
        bot.emitEvent("shaken", Map.of("strength", "hard", "peak_g", peak));
    }

    /** The agent's runs, oldest first, once there are {@code count} of them. */
    private List<JsonNode> runs(String agent, int count) {
        Awaitility.await().atMost(WAIT).until(() -> Agents.runs(alice, agent).size() == count);
        List<JsonNode> newestFirst = new java.util.ArrayList<>(Agents.runs(alice, agent));
        java.util.Collections.reverse(newestFirst);
        return newestFirst;
    }

    private JsonNode awaitStatus(String runId, String status) {
        Awaitility.await().atMost(WAIT).until(() -> Agents.run(alice, runId).path("status").asText().equals(status));
        return Agents.run(alice, runId);
    }

    @Test
    void aTriggerInTheCooldownWaitsOnATimerAndRunsOnceTheCooldownIsOver() {
        String agent = agent(3, 20);

        shake();
        String first = runs(agent, 1).get(0).path("id").asText();
        awaitStatus(first, "succeeded");
        shake();
        String second = runs(agent, 2).get(1).path("id").asText();

        JsonNode cooling = Agents.run(alice, second);
        assertThat(cooling.path("status").asText()).as(cooling.toString()).isEqualTo("cooling");
        assertThat(cooling.path("reason").asText()).startsWith("waits out the cooldown until ");
        Instant eligibleAt = Instant.parse(cooling.path("reason").asText().substring("waits out the cooldown until ".length()));
        JsonNode view = alice.get("/api/v1/gadget-agents/" + agent).json();
        assertThat(Instant.parse(view.at("/budget/nextEligibleAt").asText())).isEqualTo(eligibleAt);
        assertThat(runtime.createProcessInstanceQuery().processInstanceBusinessKey(second).count()).isOne();

        JsonNode ran = awaitStatus(second, "succeeded");
        assertThat(Instant.parse(ran.path("startedAt").asText())).isAfterOrEqualTo(eligibleAt);
        assertThat(ran.path("reason").isNull() || ran.path("reason").isMissingNode()).as(ran.toString()).isTrue();
        assertThat(ran.at("/actions/0/outcome").asText()).isEqualTo("completed");
        assertThat(Agents.decisions(alice, agent)).containsOnly("matched");
    }

    @Test
    void aCooldownLongerThanTheWaitEndsTheTriggerCooldownAtOnce() {
        String agent = agent(60, 5);

        shake();
        awaitStatus(runs(agent, 1).get(0).path("id").asText(), "succeeded");
        shake();
        JsonNode second = runs(agent, 2).get(1);

        assertThat(second.path("status").asText()).isEqualTo(RunStatus.COOLDOWN.wire());
        assertThat(second.path("reason").asText()).startsWith("cooldownSeconds; next eligible at ");
        assertThat(Agents.decisions(alice, agent)).contains("cooldown");
    }

    @Test
    void disablingTheAgentFencesACoolingRunAndEndsItsProcess() {
        String agent = agent(60, 120);

        shake();
        awaitStatus(runs(agent, 1).get(0).path("id").asText(), "succeeded");
        shake();
        String second = runs(agent, 2).get(1).path("id").asText();
        awaitStatus(second, "cooling");

        assertThat(alice.post("/api/v1/gadget-agents/" + agent + "/disable", null).status()).isEqualTo(200);

        JsonNode fenced = awaitStatus(second, "fenced");
        assertThat(fenced.path("endedAt").isTextual()).isTrue();
        Awaitility.await().atMost(WAIT).until(() ->
                runtime.createProcessInstanceQuery().processInstanceBusinessKey(second).count() == 0);
    }
}
