package dev.ringzero.gadgets;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import dev.ringzero.support.RealServices;
import org.eclipse.paho.client.mqttv3.IMqttMessageListener;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

/** A witness on the broker with the platform's credential: records what is published on a topic. */
final class PlatformSubscriber implements AutoCloseable {

    private final MqttClient client;

    private PlatformSubscriber(MqttClient client) {
        this.client = client;
    }

    static PlatformSubscriber subscribe(String topic, List<String> into) throws MqttException {
        MqttClient client = new MqttClient(RealServices.mqttUrl(), "ringzero-platform-witness-"
                + UUID.randomUUID().toString().substring(0, 8), new MemoryPersistence());
        MqttConnectOptions options = new MqttConnectOptions();
        options.setUserName("ringzero-platform");
        options.setPassword(RealServices.MQTT_SERVICE_PASSWORD.toCharArray());
        client.connect(options);
        client.subscribe(new String[] {topic}, new int[] {1}, new IMqttMessageListener[] {
                (t, message) -> into.add(new String(message.getPayload(), StandardCharsets.UTF_8))});
        return new PlatformSubscriber(client);
    }

    @Override
    public void close() throws MqttException {
        client.disconnect();
        client.close();
    }
}
