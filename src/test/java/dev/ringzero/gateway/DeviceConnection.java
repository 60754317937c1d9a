package dev.ringzero.gateway;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttCallback;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

/**
 * One plain MQTT 3.1.1 connection with a device's credential and any client id, which never
 * reconnects by itself (a simulated board would, and so hide that a broker closed it).
 */
final class DeviceConnection implements AutoCloseable {

    private static final long WAIT_MS = 5_000;

    private final MqttAsyncClient client;
    private final List<String> received = new CopyOnWriteArrayList<>();
    private volatile boolean lost;

    private DeviceConnection(MqttAsyncClient client) {
        this.client = client;
    }

    /** Connects, or throws the broker's refusal. */
    static DeviceConnection open(String brokerUrl, String clientId, String username, String password)
            throws MqttException {
        DeviceConnection connection = new DeviceConnection(new MqttAsyncClient(brokerUrl, clientId, new MemoryPersistence()));
        connection.client.setCallback(connection.new Events());
        MqttConnectOptions options = new MqttConnectOptions();
        options.setMqttVersion(MqttConnectOptions.MQTT_VERSION_3_1_1);
        options.setCleanSession(true);
        options.setAutomaticReconnect(false);
        options.setUserName(username);
        options.setPassword(password.toCharArray());
        try {
            connection.client.connect(options).waitForCompletion(WAIT_MS);
        } catch (MqttException refused) {
            connection.client.close(true);
            throw refused;
        }
        return connection;
    }

    /** Still connected, and never lost its connection (a broker that closed it and a reconnect would not show). */
    boolean holds() {
        return !lost && client.isConnected();
    }

    boolean lost() {
        return lost;
    }

    /** The QoS the broker granted, or 0x80 when it refused the subscription. */
    int subscribe(String topicFilter) throws MqttException {
        var token = client.subscribe(topicFilter, 1);
        token.waitForCompletion(WAIT_MS);
        return token.getGrantedQos()[0];
    }

    /** A QoS 1 publish; its token completes on the broker's PUBACK. */
    IMqttDeliveryToken publish(String topic, String payload) throws MqttException {
        return client.publish(topic, payload.getBytes(StandardCharsets.UTF_8), 1, false);
    }

    /** Topics of the messages that arrived on this connection's subscriptions. */
    List<String> received() {
        return List.copyOf(received);
    }

    @Override
    public void close() {
        try {
            if (client.isConnected()) {
                client.disconnectForcibly(100, 1_000);
            }
            client.close(true);
        } catch (MqttException e) {
            // already closed by the broker
        }
    }

    private final class Events implements MqttCallback {
        @Override
        public void connectionLost(Throwable cause) {
            lost = true;
        }

        @Override
        public void messageArrived(String topic, MqttMessage message) {
            received.add(topic);
        }

        @Override
        public void deliveryComplete(IMqttDeliveryToken token) {
        }
    }
}
