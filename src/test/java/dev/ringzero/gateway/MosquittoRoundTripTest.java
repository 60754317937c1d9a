package dev.ringzero.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.ringzero.support.RealServices;
import org.eclipse.paho.client.mqttv3.IMqttMessageListener;
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

    @Test
    void anonymousAndWrongPasswordConnectionsAreRefused() {
        assertThatExceptionOfType(MqttException.class).isThrownBy(() -> connect("anon-1", null, null));
        assertThatExceptionOfType(MqttException.class)
                .isThrownBy(() -> connect("wrong-1", "ringzero-platform", "not-the-password"));
    }
}
