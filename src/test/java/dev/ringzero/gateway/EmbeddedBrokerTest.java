package dev.ringzero.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.ringzero.firmware.BoardLinkException;
import dev.ringzero.firmware.DeskBot;
import dev.ringzero.firmware.LinkConfig;
import dev.ringzero.firmware.RawSubscription;
import dev.ringzero.gadgets.GadgetStore;
import dev.ringzero.support.Api;
import dev.ringzero.support.Boards;
import dev.ringzero.support.PlatformTest;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The zero-setup broker enforces the same identity rules as Mosquitto: a second, embedded
 * broker on its own port, reading the platform's pairings, checked with real boards.
 */
class EmbeddedBrokerTest extends PlatformTest implements DeviceIdentityContract {

    private static final int PORT = Integer.parseInt(
            System.getenv().getOrDefault("RINGZERO_TEST_EMBEDDED_MQTT_PORT", "18841"));

    @LocalServerPort
    int port;
    @Autowired
    GadgetStore gadgets;

    /** One broker for the class: restarting Moquette on the same port between tests races its shutdown. */
    private static EmbeddedBroker underTest;
    private Api alice;
    private final Boards boards = new Boards();

    @BeforeEach
    void startBroker() {
        if (underTest == null) {
            underTest = new EmbeddedBroker(new MqttSettings(true, "127.0.0.1", PORT, "ringzero-platform", null, "t",
                    null), "embedded-service-secret", gadgets);
            underTest.start();
            // no platform consumes this broker's boards: their events and answers are taken and
            // acknowledged at once, as the platform does once it has recorded them
            underTest.deliverBoardMessagesTo((topic, payload, redelivered, acknowledge) -> acknowledge.run());
            awaitAcceptingClients();
        }
        alice = Api.at(port).newOwner("alice");
    }

    /**
     * On a cold JVM Moquette has dropped the first client that connected within a second of its
     * start (seen in CI from a fresh clone: closed right after CONNECT, before the SUBSCRIBE).
     * These tests are about who may connect and subscribe, so they begin once a service client
     * has connected and subscribed.
     */
    private static void awaitAcceptingClients() {
        for (int attempt = 1; ; attempt++) {
            try {
                var probe = new org.eclipse.paho.client.mqttv3.MqttClient("tcp://127.0.0.1:" + PORT,
                        "ringzero-platform-probe", new org.eclipse.paho.client.mqttv3.persist.MemoryPersistence());
                var options = new org.eclipse.paho.client.mqttv3.MqttConnectOptions();
                options.setUserName("ringzero-platform");
                options.setPassword("embedded-service-secret".toCharArray());
                probe.connect(options);
                probe.subscribe("ringzero/v1/gadgets/+/status", 1);
                probe.disconnect();
                probe.close();
                return;
            } catch (org.eclipse.paho.client.mqttv3.MqttException e) {
                if (attempt == 20) {
                    throw new IllegalStateException("the embedded broker accepts no client", e);
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(interrupted);
                }
            }
        }
    }

    @AfterEach
    void closeBoards() {
        boards.close();
    }

    @org.junit.jupiter.api.AfterAll
    static void stopBroker() {
        if (underTest != null) {
            underTest.stop();
            underTest = null;
        }
    }

    @Override
    public String brokerUrl() {
        return "tcp://127.0.0.1:" + PORT;
    }

    @Override
    public Api newOwner(String prefix) {
        return Api.at(port).newOwner(prefix);
    }

    private LinkConfig onEmbedded(LinkConfig config) {
        return new LinkConfig("tcp://127.0.0.1:" + PORT, config.gadgetId(), config.password());
    }

    @Test
    void aPairedBoardConnectsWithItsOwnCredentialOnly() {
        LinkConfig config = onEmbedded(Boards.pair(alice, "desk"));

        DeskBot bot = boards.connect(new DeskBot(config));

        assertThat(bot.isConnected()).isTrue();
        assertThatExceptionOfType(BoardLinkException.class).isThrownBy(() ->
                new DeskBot(new LinkConfig(config.brokerUrl(), config.gadgetId(), "wrong")).start());
        assertThatExceptionOfType(BoardLinkException.class).isThrownBy(() ->
                new DeskBot(new LinkConfig(config.brokerUrl(), "not-paired", config.password())).start());
    }

    @Test
    void aClientIdThatIsNotTheGadgetsOwnIsRefused() throws Exception {
        LinkConfig config = onEmbedded(Boards.pair(alice, "desk"));
        LinkConfig other = onEmbedded(Boards.pair(alice, "desk"));

        DeskBot debugging = boards.connect(new DeskBot(config.withSuffix("debug")));
        var impostor = new org.eclipse.paho.client.mqttv3.MqttClient(config.brokerUrl(), other.gadgetId(),
                new org.eclipse.paho.client.mqttv3.persist.MemoryPersistence());
        var options = new org.eclipse.paho.client.mqttv3.MqttConnectOptions();
        options.setUserName(config.gadgetId());
        options.setPassword(config.password().toCharArray());

        assertThat(debugging.isConnected()).isTrue();
        assertThatExceptionOfType(org.eclipse.paho.client.mqttv3.MqttException.class)
                .isThrownBy(() -> impostor.connect(options));
        impostor.close();
    }

    @Test
    void aBoardCannotSubscribeToOrPublishOnAnotherBoardsTopics() {
        DeskBot a = boards.connect(new DeskBot(onEmbedded(Boards.pair(alice, "desk"))));
        DeskBot b = boards.connect(new DeskBot(onEmbedded(Boards.pair(alice, "desk"))));
        RawSubscription bWatchesItsInvoke = b.subscribeRaw("ringzero/v1/gadgets/" + b.gadgetId() + "/invoke");

        RawSubscription snoop = a.subscribeRaw("ringzero/v1/gadgets/" + b.gadgetId() + "/invoke");
        RawSubscription everything = a.subscribeRaw("ringzero/v1/gadgets/+/invoke");
        a.publishRawTo("ringzero/v1/gadgets/" + b.gadgetId() + "/invoke",
                "{\"method\":\"link.invoke\",\"id\":\"forged\"}".getBytes(StandardCharsets.UTF_8));

        assertThat(snoop.granted()).isFalse();
        assertThat(everything.granted()).isFalse();
        Awaitility.await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
                .until(() -> bWatchesItsInvoke.messages().isEmpty());
    }

    @Test
    void aRefusedPublishClosesTheDevicesConnectionSoItDoesNotWaitForAnAcknowledgement() throws Exception {
        LinkConfig config = onEmbedded(Boards.pair(alice, "desk"));
        LinkConfig other = onEmbedded(Boards.pair(alice, "desk"));

        try (DeviceConnection own = DeviceConnection.open(config.brokerUrl(), config.gadgetId(), config.gadgetId(),
                config.password());
                DeviceConnection foreign = DeviceConnection.open(config.brokerUrl(), other.gadgetId(),
                        other.gadgetId(), other.password())) {
            own.publish(Topics.of(config.gadgetId(), Topics.INVOKE), "{}");
            foreign.publish(Topics.of(config.gadgetId(), Topics.EVENTS), "{}");

            // Moquette drops a refused publish without a PUBACK; only the closed connection tells
            Awaitility.await().atMost(NOTICED_WITHIN).until(() -> own.lost() && foreign.lost());
        }
    }
}
