package dev.ringzero.firmware;

import static dev.ringzero.firmware.Invocations.invoke;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The desk bot's sensors, speaker and registration, without a broker. */
class DeskBotTest {

    private final DeskBot underTest = new DeskBot(new LinkConfig("tcp://127.0.0.1:1", "desk-t", "x"));

    @AfterEach
    void close() {
        underTest.close();
    }

    @Test
    void hardShakeEmitsShakenWithPeakAndStrength() {
        String id = underTest.shake("hard");

        assertNotNull(id);
        SentEvent event = underTest.sentEvents().get(0);
        assertEquals("shaken", event.event());
        assertEquals(id, event.id());
        assertEquals("hard", event.data().get("strength"));
        assertTrue((Double) event.data().get("peak_g") >= 2.0);
    }

    @Test
    void gentleShakeIsReportedAsGentle() {
        underTest.shake("gentle");

        Map<String, Object> data = underTest.sentEvents().get(0).data();
        assertEquals("gentle", data.get("strength"));
        assertTrue((Double) data.get("peak_g") < 2.0);
    }

    @Test
    void secondShakeRightAfterTheFirstIsSuppressedByTheCooldown() {
        underTest.shake("hard");

        assertNull(underTest.shake("hard"));
        assertEquals(1, underTest.sentEvents().size());
    }

    @Test
    void cooldownCanBeSwitchedOffForTests() {
        underTest.shakeCooldown(Duration.ZERO);

        assertNotNull(underTest.shake("hard"));
        assertNotNull(underTest.shake("gentle"));
    }

    @Test
    void unknownShakeStrengthIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> underTest.shake("violent"));
    }

    @Test
    void sayAnswersFetchingAtOnceAndEmitsSpeakerIdleWhenPlaybackEnds() {
        underTest.handle(invoke("say-1", "speaker.say", "{\"text\":\"hi\"}"));

        assertEquals(Map.of("status", "fetching"), ((CommandOutcome.Done) underTest.storedResult("say-1").orElseThrow()).payload());
        SentEvent idle = awaitEvent("speaker_idle");
        assertEquals(Map.of("invocation", "say-1"), idle.data());
        DeskBot.SpeakerPlayback playback = underTest.speakerLog().get(0);
        assertEquals("say-1", playback.invocationId());
        assertNotNull(playback.endedAt());
    }

    @Test
    void overlappingUtterancesBothPlayAndTheLogShowsTheOverlap() {
        underTest.handle(invoke("say-a", "speaker.say", "{\"text\":\"a long sentence to keep the speaker busy\"}"));
        underTest.handle(invoke("say-b", "speaker.say", "{\"text\":\"a second long sentence, interrupting\"}"));

        awaitEvents("speaker_idle", 2);

        List<DeskBot.SpeakerPlayback> log = underTest.speakerLog();
        assertEquals(2, log.size());
        assertTrue(log.get(0).overlaps(log.get(1)));
    }

    @Test
    void stopEndsPlaybackAndEmitsSpeakerIdle() {
        underTest.handle(invoke("clip-1", "speaker.play_url", "{\"url\":\"https://example.org/bark.mp3\",\"duration_ms\":60000}"));

        underTest.handle(invoke("stop-1", "speaker.stop", "{}"));

        assertEquals(Map.of("status", "stopped"), ((CommandOutcome.Done) underTest.storedResult("stop-1").orElseThrow()).payload());
        assertEquals(Map.of("invocation", "clip-1"), awaitEvent("speaker_idle").data());
        underTest.handle(invoke("status-1", "speaker.status", "{}"));
        Map<String, Object> status = ((CommandOutcome.Done) underTest.storedResult("status-1").orElseThrow()).payload();
        assertEquals("idle", status.get("state"));
        assertNull(status.get("current"));
    }

    @Test
    void registrationDeclaresCommandsWithTimeoutsAndEvents() {
        Map<String, Object> params = underTest.registrationParams();

        assertEquals("desk-t", params.get("node_id"));
        assertEquals("sim", params.get("platform"));
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> commands = (Map<String, Map<String, Object>>) params.get("commands_v2");
        assertEquals(30_000L, commands.get("speaker.say").get("timeout_ms"));
        assertEquals(5_000L, commands.get("display.show_text").get("timeout_ms"));
        assertEquals(2_000L, commands.get("imu.read").get("timeout_ms"));
        assertEquals(Map.of("text", Map.of("type", "string", "description", "What to say, plain text")),
                commands.get("speaker.say").get("required"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> events = (List<Map<String, Object>>) params.get("events");
        assertEquals(List.of("shaken", "picked_up", "put_down", "speaker_idle", "ptt_started", "ptt_ended"),
                events.stream().map(e -> e.get("name")).toList());
    }

    @Test
    void customizedRegistrationCarriesTheExtraFields() {
        underTest.customizeRegistration(params -> params.put("instructions", "Be brief."));

        assertEquals("Be brief.", underTest.registrationParams().get("instructions"));
    }

    private SentEvent awaitEvent(String name) {
        return awaitEvents(name, 1).get(0);
    }

    private List<SentEvent> awaitEvents(String name, int n) {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            List<SentEvent> found = underTest.sentEvents().stream().filter(e -> e.event().equals(name)).toList();
            if (found.size() >= n) {
                return found;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("fewer than " + n + " " + name + " events");
    }
}
