package dev.ringzero.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.ringzero.support.RealServices;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.IMqttMessageListener;
import org.eclipse.paho.client.mqttv3.MqttCallback;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The project's own Mosquitto (mqtt-broker/): a real round trip, and no anonymous access. */
class MosquittoRoundTripTest {

    @BeforeAll
    static void broker() {
        RealServices.start();
    }

    private static MqttClient connect(String clientId, String user, String password) throws MqttException {
        MqttClient client = new MqttClient(RealServices.mqttUrl(), clientId, new MemoryPersistence());
        MqttConnectOptions options = new MqttConnectOptions();
        options.setCleanSession(true);
        if (user != null) {
            options.setUserName(user);
            options.setPassword(password.toCharArray());
        }
        client.connect(options);
        return client;
    }

    @Test
    void aMessagePublishedByThePlatformCredentialComesBack() throws Exception {
        MqttClient client = connect("ringzero-platform-rt", "ringzero-platform", RealServices.MQTT_SERVICE_PASSWORD);
        BlockingQueue<String> received = new ArrayBlockingQueue<>(1);
        client.subscribe(new String[] {"ringzero/v1/roundtrip"}, new int[] {1}, new IMqttMessageListener[] {
                (topic, message) -> received.add(new String(message.getPayload(), StandardCharsets.UTF_8))});

        client.publish("ringzero/v1/roundtrip", "ping".getBytes(StandardCharsets.UTF_8), 1, false);

        assertThat(received.poll(5, TimeUnit.SECONDS)).isEqualTo("ping");
        client.disconnect();
        client.close();
    }

    /**
     * What the link's inbound connection relies on (manual acks, a persistent session): an event
     * it has not acknowledged, because it was not stored yet when the connection went, is
     * delivered again to the next connection of that session; once acknowledged, never again.
     */
    @Test
    void aMessageLeftUnacknowledgedIsDeliveredAgainAfterAReconnectAndNotOnceAcknowledged() throws Exception {
        String clientId = "ringzero-platform-acks-" + System.nanoTime();
        String topic = "ringzero/v1/acks-" + System.nanoTime();
        BlockingQueue<MqttMessage> received = new ArrayBlockingQueue<>(10);
        MqttClient first = persistentSession(clientId, received);
        first.subscribe(topic, 1);
        MqttClient publisher = connect("ringzero-platform-pub-" + System.nanoTime(), "ringzero-platform",
                RealServices.MQTT_SERVICE_PASSWORD);
        publisher.publish(topic, "shaken".getBytes(StandardCharsets.UTF_8), 1, false);
        assertThat(received.poll(5, TimeUnit.SECONDS)).isNotNull(); // ...and left unacknowledged
        first.disconnectForcibly(0, 1000);
        first.close();

        MqttClient second = persistentSession(clientId, received);
        MqttMessage again = received.poll(5, TimeUnit.SECONDS);
        assertThat(again).as("delivered again to the session's next connection").isNotNull();
        assertThat(new String(again.getPayload(), StandardCharsets.UTF_8)).isEqualTo("shaken");
        second.messageArrivedComplete(again.getId(), again.getQos());
        Thread.sleep(200); // the acknowledgement reaches the broker before the connection goes
        second.disconnect();
        second.close();

        MqttClient third = persistentSession(clientId, received);
        assertThat(received.poll(1, TimeUnit.SECONDS)).as("acknowledged: never delivered again").isNull();
        third.disconnect();
        third.close();
        publisher.disconnect();
        publisher.close();
        connect(clientId, "ringzero-platform", RealServices.MQTT_SERVICE_PASSWORD).disconnect(); // clean session
    }

    @Test
    void aSharedSubscriptionsMessagesReachTheAdapterThroughTheLinkClientManager() throws Exception {
        String topic = "ringzero/v1/shared-" + System.nanoTime();
        MqttConnectOptions options = new MqttConnectOptions();
        options.setServerURIs(new String[] {RealServices.mqttUrl()});
        options.setUserName("ringzero-platform");
        options.setPassword(RealServices.MQTT_SERVICE_PASSWORD.toCharArray());
        MqttConfig.LinkClientManager manager = new MqttConfig.LinkClientManager(options,
                "ringzero-platform-shared-" + System.nanoTime());
        manager.setPersistence(new MemoryPersistence());
        BlockingQueue<String> toAdapter = new ArrayBlockingQueue<>(10);
        BlockingQueue<String> toListener = new ArrayBlockingQueue<>(10);
        manager.deliverUnmatchedTo(onMessage((arrivedOn, message) -> toAdapter.add(arrivedOn)));
        manager.start();
        try {
            manager.getClient().subscribe(new String[] {"$share/ringzero/" + topic}, new int[] {1}, null, null,
                    new IMqttMessageListener[] {(arrivedOn, message) -> toListener.add(arrivedOn)})
                    .waitForCompletion(5_000);
            MqttClient publisher = connect("ringzero-platform-pub-" + System.nanoTime(), "ringzero-platform",
                    RealServices.MQTT_SERVICE_PASSWORD);
            publisher.publish(topic, "shaken".getBytes(StandardCharsets.UTF_8), 1, false);
            publisher.disconnect();
            publisher.close();

            assertThat(toAdapter.poll(5, TimeUnit.SECONDS)).as("handed to the adapter").isEqualTo(topic);
            assertThat(toListener).as("Paho matches no listener to a shared subscription").isEmpty();
        } finally {
            manager.stop();
        }
    }

    /** A client callback that hands each message to {@code handler} and ignores the rest. */
    private static MqttCallback onMessage(java.util.function.BiConsumer<String, MqttMessage> handler) {
        return new MqttCallback() {
            @Override
            public void connectionLost(Throwable cause) {
            }

            @Override
            public void messageArrived(String topic, MqttMessage message) {
                handler.accept(topic, message);
            }

            @Override
            public void deliveryComplete(IMqttDeliveryToken token) {
            }
        };
    }

    /** As the platform's inbound client: persistent session, acknowledgements by hand. */
    private static MqttClient persistentSession(String clientId, BlockingQueue<MqttMessage> received)
            throws MqttException {
        MqttClient client = new MqttClient(RealServices.mqttUrl(), clientId, new MemoryPersistence());
        client.setManualAcks(true);
        client.setCallback(onMessage((topic, message) -> received.add(message)));
        MqttConnectOptions options = new MqttConnectOptions();
        options.setCleanSession(false);
        options.setUserName("ringzero-platform");
        options.setPassword(RealServices.MQTT_SERVICE_PASSWORD.toCharArray());
        client.connect(options);
        return client;
    }

    @Test
    void anonymousAndWrongPasswordConnectionsAreRefused() {
        assertThatExceptionOfType(MqttException.class).isThrownBy(() -> connect("anon-1", null, null));
        assertThatExceptionOfType(MqttException.class)
                .isThrownBy(() -> connect("wrong-1", "ringzero-platform", "not-the-password"));
    }
}
