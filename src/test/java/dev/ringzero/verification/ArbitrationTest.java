package dev.ringzero.verification;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import dev.ringzero.firmware.DeskBot.SpeakerPlayback;
import dev.ringzero.firmware.Rover;
import dev.ringzero.support.Agents;
import dev.ringzero.support.Api.Response;
import dev.ringzero.support.OwnerWithDeskBotTest;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** One sound at a time per speaker, the person first, stale background sound dropped, fences honoured. */
class ArbitrationTest extends OwnerWithDeskBotTest {

    private Response say(String url, int durationMs) {
        return alice.post("/api/v1/gadgets/" + bot.gadgetId() + "/commands",
                "{\"command\":\"speaker.play_url\",\"params\":{\"url\":\"" + url + "\",\"duration_ms\":" + durationMs + "}}");
    }

    @Test
    void twoBackgroundAgentsSpeakingAtOnceNeverOverlap() {
        String first = Agents.create(alice, Agents.sound(bot.gadgetId(), "first", 800, "parallel"));
        String second = Agents.create(alice, Agents.sound(bot.gadgetId(), "second", 800, "parallel"));

        Agents.runNow(alice, first);
        Agents.runNow(alice, second);

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> bot.speakerLog().size() == 2
                && bot.speakerLog().stream().allMatch(playback -> playback.endedAt() != null));
        List<SpeakerPlayback> log = bot.speakerLog();
        assertThat(log.get(0).overlaps(log.get(1))).as(log.toString()).isFalse();
    }

    @Test
    void aQueuedUtteranceOlderThanTheStalenessBoundIsDroppedStale() {
        String agent = Agents.create(alice, Agents.sound(bot.gadgetId(), "late", 300, "parallel"));
        assertThat(say("https://example.org/long-story.mp3", 5_500).json().path("outcome").asText()).isEqualTo("accepted");

        String runId = Agents.runNow(alice, agent);

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() ->
                "dropped_stale".equals(Agents.run(alice, runId).at("/actions/0/outcome").asText()));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                "succeeded".equals(Agents.run(alice, runId).path("status").asText()));
        assertThat(bot.invocations()).extracting(invocation -> invocation.params().get("url"))
                .doesNotContain("https://example.org/late.mp3");
    }

    @Test
    void theOwnersDirectCommandPlaysBeforeQueuedBackgroundSpeech() {
        String background = Agents.create(alice, Agents.sound(bot.gadgetId(), "background", 1_500, "parallel"));
        String other = Agents.create(alice, Agents.sound(bot.gadgetId(), "queued", 300, "parallel"));
        Agents.runNow(alice, background);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !bot.speakerLog().isEmpty());
        Agents.runNow(alice, other);
        Awaitility.await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
                .until(() -> bot.invocations().size() == 1);

        Response direct = say("https://example.org/person.mp3", 300);

        assertThat(direct.json().path("outcome").asText()).isEqualTo("accepted");
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> bot.speakerLog().size() >= 3);
        List<String> order = bot.invocations().stream().map(invocation -> invocation.command() + " "
                + invocation.params().getOrDefault("url", "")).toList();
        assertThat(order.indexOf("speaker.play_url https://example.org/person.mp3"))
                .isLessThan(order.indexOf("speaker.play_url https://example.org/queued.mp3"));
        assertThat(order).contains("speaker.stop ");
    }

    @Test
    void disablingAnAgentWhileThreeOfItsRunsWaitForTheSpeakerFencesAllThree() {
        String agent = Agents.create(alice, Agents.sound(bot.gadgetId(), "fenced", 300, "parallel"));
        say("https://example.org/hold.mp3", 2_000);
        List<String> runIds = List.of(Agents.runNow(alice, agent), Agents.runNow(alice, agent),
                Agents.runNow(alice, agent));

        alice.post("/api/v1/gadget-agents/" + agent + "/disable", null);

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> runIds.stream()
                .allMatch(runId -> "fenced".equals(Agents.run(alice, runId).path("status").asText())));
        assertThat(bot.invocations()).extracting(invocation -> invocation.params().get("url"))
                .containsExactly("https://example.org/hold.mp3");
    }

    @Test
    void aRoverMovedByAnAgentRefusesAnyOtherMoverUntilAStopFreesIt() {
        Rover rover = boards.rover(alice);
        String drive = "/api/v1/gadgets/" + rover.gadgetId() + "/commands";
        assertThat(alice.post("/api/v1/trust-rules", "{\"intent\":\"chassis.drive\",\"level\":\"auto\"}").status())
                .isEqualTo(201);
        String agent = Agents.create(alice, """
                {"apiVersion":"ringzero/v1","name":"Long patrol","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"invoke"}],
                 "actions":[{"gadget":"%1$s","command":"chassis.drive","params":{"left":40,"right":40,"duration_ms":8000}}],
                 "allow":{"commands":["chassis.drive"],"physical":true},"budget":{"runsPerHour":10}}
                """.formatted(rover.gadgetId()));
        String runId = Agents.runNow(alice, agent);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> rover.invocations().size() == 1);

        Response refused = alice.post(drive, "{\"command\":\"chassis.drive\",\"params\":{\"left\":-40,\"right\":-40}}");
        assertThat(refused.status()).as(refused.body()).isEqualTo(409);
        assertThat(refused.json().path("type").asText()).endsWith("mover-busy");
        assertThat(rover.invocations()).as("the person's drive never left").hasSize(1);

        Response stop = alice.post(drive, "{\"command\":\"chassis.stop\"}");
        assertThat(stop.status()).as(stop.body()).isEqualTo(200);
        assertThat(stop.json().at("/payload/was_moving").asBoolean()).isTrue();
        Response again = alice.post(drive,
                "{\"command\":\"chassis.drive\",\"params\":{\"left\":-40,\"right\":-40,\"duration_ms\":200}}");
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().path("outcome").asText()).isEqualTo("completed");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                "succeeded".equals(Agents.run(alice, runId).path("status").asText()));
    }
}
