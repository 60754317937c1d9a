package dev.ringzero.agents.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.ringzero.firmware.ReceivedInvocation;
import dev.ringzero.support.Agents;
import dev.ringzero.support.OwnerWithDeskBotTest;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A run's command that no device received (as after a node stopped between its commit and its
 * publish) is published again after a start, with the same id; the board here is silent for the
 * first one, which is what a lost publish looks like from the device.
 */
class RunInvocationReplayTest extends OwnerWithDeskBotTest {

    @Autowired
    RunInvocationReplay replay;

    /** Starts an imu.read run (2 s timeout) whose first invoke the board receives but never acts on. */
    private String firstInvocationUnanswered(String agent) {
        bot.setSilent(true);
        String runId = Agents.runNow(alice, agent);
        assertThat(bot.awaitInvocations(1, Duration.ofSeconds(5))).isTrue();
        bot.setSilent(false);
        return runId;
    }

    @Test
    void anUnansweredCommandIsPublishedAgainWithItsIdAndItsRunFinishes() {
        String agent = Agents.create(alice, Agents.imuRead(bot.gadgetId(), "Replayed", "parallel"));
        String runId = firstInvocationUnanswered(agent);
        String invocationId = bot.invocations().get(0).id();
        assertThat(bot.storedResult(invocationId)).isEmpty();

        List<String> replayed = replay.replaySentBefore(Instant.now().plusMillis(1));

        assertThat(replayed).contains(invocationId);
        Awaitility.await().atMost(Duration.ofSeconds(2)).until(() ->
                "succeeded".equals(Agents.run(alice, runId).path("status").asText()));
        assertThat(bot.invocations()).extracting(ReceivedInvocation::id).containsExactly(invocationId, invocationId);
        assertThat(bot.storedResult(invocationId)).isPresent();
        // answered now: a later start repeats it no more
        assertThat(replay.replaySentBefore(Instant.now().plusMillis(1))).doesNotContain(invocationId);
    }

    @Test
    void aCommandOfAnAgentDisabledMeanwhileIsNotRepeated() {
        String agent = Agents.create(alice, Agents.imuRead(bot.gadgetId(), "Disabled meanwhile", "parallel"));
        String runId = firstInvocationUnanswered(agent);
        String invocationId = bot.invocations().get(0).id();
        alice.post("/api/v1/gadget-agents/" + agent + "/disable", null);

        assertThat(replay.replaySentBefore(Instant.now().plusMillis(1))).doesNotContain(invocationId);
        // it ends at its deadline (2 s and a second of grace), its outcome unknown
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                !"running".equals(Agents.run(alice, runId).path("status").asText()));
        assertThat(Agents.run(alice, runId).path("status").asText()).isNotEqualTo("succeeded");
        assertThat(bot.invocations()).hasSize(1);
    }

    @Test
    void aSoundIsNeverRepeatedNorACommandSentAfterTheStart() {
        String sound = Agents.create(alice, Agents.sound(bot.gadgetId(), "Unheard", 100, "parallel"));
        bot.setSilent(true);
        Agents.runNow(alice, sound);
        assertThat(bot.awaitInvocations(1, Duration.ofSeconds(5))).isTrue();
        String soundInvocation = bot.invocations().get(0).id();
        Instant startedBefore = Instant.now().minusSeconds(60);
        String imu = Agents.create(alice, Agents.imuRead(bot.gadgetId(), "After the start", "parallel"));
        Agents.runNow(alice, imu);
        assertThat(bot.awaitInvocations(2, Duration.ofSeconds(5))).isTrue();
        String afterStart = bot.invocations().get(1).id();
        bot.setSilent(false);

        assertThat(replay.replaySentBefore(Instant.now().plusMillis(1))).doesNotContain(soundInvocation);
        assertThat(replay.replaySentBefore(startedBefore)).doesNotContain(afterStart);
    }
}
