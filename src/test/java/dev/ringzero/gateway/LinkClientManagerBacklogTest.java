package dev.ringzero.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.ringzero.support.RealServices;
import org.awaitility.Awaitility;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.MqttCallback;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.Lifecycle;

/**
 * A restarted node's persistent session hands it its backlog as soon as it connects, before the
 * adapter that can acknowledge anything has started (RingZero's Mosquitto, a real session).
 */
class LinkClientManagerBacklogTest {

    @BeforeAll
    static void broker() {
        RealServices.start();
    }

    /** Stands in for the message-driven adapter: not running until the test says so. */
    private static final class Adapter implements MqttCallback, Lifecycle {
        final List<String> received = new CopyOnWriteArrayList<>();
        volatile boolean running;

        @Override
        public void messageArrived(String topic, MqttMessage message) {
            if (!running) {
                throw new IllegalStateException("Client has changed"); // what the real adapter throws then
            }
            received.add(new String(message.getPayload(), StandardCharsets.UTF_8));
        }

        @Override
        public void connectionLost(Throwable cause) {
        }

        @Override
        public void deliveryComplete(IMqttDeliveryToken token) {
        }

        @Override
        public void start() {
            running = true;
        }

        @Override
        public void stop() {
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }
    }

    @Test
    void aBacklogThatArrivesBeforeTheAdapterStartedWaitsForItInOrderAndKeepsTheConnection() throws Exception {
        String clientId = "ringzero-platform-backlog-" + System.nanoTime();
        String topic = "ringzero/v1/backlog-" + System.nanoTime();
        MqttConnectOptions options = new MqttConnectOptions();
        options.setServerURIs(new String[] {RealServices.mqttUrl()});
        options.setUserName("ringzero-platform");
        options.setPassword(RealServices.MQTT_SERVICE_PASSWORD.toCharArray());
        options.setCleanSession(false);
        MqttClient previousLife = new MqttClient(RealServices.mqttUrl(), clientId, new MemoryPersistence());
        previousLife.connect(options);
        previousLife.subscribe(topic, 1);
        previousLife.disconnect();
        previousLife.close();
        MqttClient board = new MqttClient(RealServices.mqttUrl(), clientId + "-pub", new MemoryPersistence());
        MqttConnectOptions boardOptions = new MqttConnectOptions();
        boardOptions.setUserName("ringzero-platform");
        boardOptions.setPassword(RealServices.MQTT_SERVICE_PASSWORD.toCharArray());
        board.connect(boardOptions);
        for (String text : List.of("1", "2", "3")) {
            board.publish(topic, text.getBytes(StandardCharsets.UTF_8), 1, false);
        }
        board.disconnect();
        board.close();
        MqttConfig.LinkClientManager underTest = new MqttConfig.LinkClientManager(options, clientId);
        underTest.setPersistence(new MemoryPersistence());
        underTest.setManualAcks(true);
        Adapter adapter = new Adapter();
        underTest.deliverUnmatchedTo(adapter);
        underTest.start();
        try {
            Thread.sleep(500); // the backlog has arrived by now

            assertThat(adapter.received).isEmpty();
            assertThat(underTest.isConnected()).as("the connection survived the backlog").isTrue();
            adapter.start();
            underTest.adapterStarted();
            Awaitility.await().atMost(java.time.Duration.ofSeconds(5))
                    .until(() -> adapter.received.size() == 3);
            assertThat(adapter.received).containsExactly("1", "2", "3");
        } finally {
            underTest.stop();
            MqttClient cleanUp = new MqttClient(RealServices.mqttUrl(), clientId, new MemoryPersistence());
            cleanUp.connect(boardOptions); // a clean session ends the persistent one
            cleanUp.disconnect();
            cleanUp.close();
        }
    }
}
