package dev.ringzero.firmware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.firmware.ReceivedInvocation.Handling;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A desk bot against the machine's Mosquitto (anonymous allowed, so any username
 * works), with a plain Paho client playing the platform. Broker url from
 * {@code -Dringzero.test.broker}, default {@code tcp://127.0.0.1:1883}.
 */
class MosquittoRoundTripTest {

    private static final String BROKER = System.getProperty("ringzero.test.broker", "tcp://127.0.0.1:1883");
    private static final long WAIT_S = 10;

    private final String gadgetId = "sim-test-" + UUID.randomUUID().toString().substring(0, 8);
    private final Map<String, BlockingQueue<JsonNode>> received = new ConcurrentHashMap<>();
    private MqttClient platform;
    private DeskBot underTest;

    @BeforeAll
    static void brokerIsRunning() {
        URI uri = URI.create(BROKER);
        try (Socket probe = new Socket()) {
            probe.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 1_000);
        } catch (IOException e) {
            assumeTrue(false, "no MQTT broker at " + BROKER + "; start Mosquitto to run this test");
        }
    }

    @BeforeEach
    void platformListens() throws MqttException {
        platform = new MqttClient(BROKER, "platform-" + gadgetId, new MemoryPersistence());
        MqttConnectOptions options = new MqttConnectOptions();
        options.setCleanSession(true);
        platform.connect(options);
        for (String suffix : List.of("register", "results", "events", "status")) {
            received.put(suffix, new LinkedBlockingQueue<>());
            platform.subscribe(topic(suffix), 1, (topic, message) -> {
                if (message.getPayload().length > 0) {
                    received.get(suffix).add(FirmwareJson.parse(message.getPayload()));
                }
            });
        }
        underTest = new DeskBot(new LinkConfig(BROKER, gadgetId, "any password"));
    }

    @AfterEach
    void cleanUp() throws MqttException {
        underTest.close();
        // leave no retained status behind on the shared broker
        platform.publish(topic("status"), new byte[0], 1, true);
        platform.disconnect();
        platform.close();
    }

    private String topic(String suffix) {
        return LinkConfig.topicOf(gadgetId, suffix);
    }

    private JsonNode next(String suffix) throws InterruptedException {
        JsonNode message = received.get(suffix).poll(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(message, "nothing on " + suffix + " within " + WAIT_S + " s");
        return message;
    }

    private void publish(String suffix, String json) throws MqttException {
        platform.publish(topic(suffix), json.getBytes(StandardCharsets.UTF_8), 1, false);
    }

    private void acceptRegistration() throws Exception {
        JsonNode register = next("register");
        assertEquals("link.register", register.path("method").asText());
        publish("register/reply", "{\"type\":\"res\",\"id\":\"" + register.path("id").asText()
                + "\",\"ok\":true,\"result\":{\"status\":\"registered\"}}");
        assertTrue(underTest.awaitRegistered(Duration.ofSeconds(WAIT_S)));
    }

    @Test
    void invocationIsAnsweredAndARepeatedIdGetsTheStoredResultWithoutRunningAgain() throws Exception {
        underTest.start();
        assertTrue(next("status").path("online").asBoolean());
        acceptRegistration();
        String invoke = "{\"method\":\"link.invoke\",\"id\":\"inv-42\",\"command\":\"speaker.say\","
                + "\"params\":{\"text\":\"Good morning\"},\"timeout_ms\":30000}";

        publish("invoke", invoke);
        JsonNode first = next("results");
        publish("invoke", invoke);
        JsonNode second = next("results");

        assertEquals("link.result", first.path("method").asText());
        assertEquals("inv-42", first.path("id").asText());
        assertTrue(first.path("ok").asBoolean());
        assertEquals("fetching", first.path("payload").path("status").asText());
        assertEquals(first, second);
        assertEquals(List.of(Handling.EXECUTED, Handling.REPLAYED),
                underTest.invocations().stream().map(ReceivedInvocation::handling).toList());
        JsonNode idle = next("events");
        assertEquals("speaker_idle", idle.path("params").path("event").asText());
        assertEquals("inv-42", idle.path("params").path("data").path("invocation").asText());
    }

    @Test
    void anEventCarriesTheBoardsUptimeAndASecondConnectionsEventsNone() throws Exception {
        underTest.start();
        acceptRegistration();
        underTest.emitEvent("shaken", Map.of("strength", "hard"));
        JsonNode fromBoard = next("events").path("params");

        assertEquals("shaken", fromBoard.path("event").asText());
        assertTrue(fromBoard.path("uptime_ms").isIntegralNumber(), fromBoard.toString());
        assertTrue(fromBoard.path("uptime_ms").asLong() >= 0);

        // a maker's tool on gadgetId-dbg has a clock of its own, which is not the board's
        DeskBot tool = new DeskBot(new LinkConfig(BROKER, gadgetId, "any password", "dbg"));
        try {
            tool.start();
            tool.emitEvent("shaken", Map.of("strength", "soft"));
            JsonNode fromTool = next("events").path("params");
            assertEquals("soft", fromTool.path("data").path("strength").asText());
            assertTrue(fromTool.path("uptime_ms").isMissingNode(), fromTool.toString());
        } finally {
            tool.close();
        }
    }

    @Test
    void killedBoardLeavesTheRetainedLastWillOffline() throws Exception {
        underTest.start();
        assertTrue(next("status").path("online").asBoolean());

        underTest.kill();

        JsonNode will = next("status");
        assertFalse(will.path("online").asBoolean(true));
        assertFalse(underTest.isConnected());
    }

    @Test
    void boardThatLosesItsLinkReconnectsAndRegistersAgain() throws Exception {
        underTest.start();
        acceptRegistration();

        // a second client with the same id makes the broker drop the board's session
        MqttClient intruder = new MqttClient(BROKER, gadgetId, new MemoryPersistence());
        intruder.connect();

        JsonNode again = next("register");
        assertEquals("link.register", again.path("method").asText());
        publish("register/reply", "{\"type\":\"res\",\"id\":\"" + again.path("id").asText()
                + "\",\"ok\":true,\"result\":{\"status\":\"registered\"}}");
        assertTrue(underTest.awaitRegistered(Duration.ofSeconds(WAIT_S)));
        assertTrue(underTest.isConnected());
        intruder.close(true);
    }

    @Test
    void unpairedNoticeClosesTheBoardForGood() throws Exception {
        underTest.start();
        assertTrue(next("status").path("online").asBoolean());

        publish("control", "{\"type\":\"event\",\"event\":\"link.unpaired\"}");

        assertFalse(next("status").path("online").asBoolean(true));
        assertTrue(underTest.unpaired());
        // the offline status goes out just before the disconnect completes: wait for the latter
        long until = System.nanoTime() + 5_000_000_000L;
        while (underTest.isConnected() && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertFalse(underTest.isConnected());
        assertTrue(underTest.controlNotices().get(0).isUnpaired());
    }
}
