package dev.ringzero.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import dev.ringzero.support.Api;
import dev.ringzero.support.PlatformTest;
import dev.ringzero.support.RealServices;
import org.awaitility.Awaitility;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * RingZero's Mosquitto (mqtt-broker/: dynamic security for credentials and topics, the client-id
 * plugin ringzero_clientid.c) as the platform provisions it.
 */
class MosquittoIdentityTest extends PlatformTest implements DeviceIdentityContract {

    @LocalServerPort
    int port;

    @Override
    public String brokerUrl() {
        return RealServices.mqttUrl();
    }

    @Override
    public Api newOwner(String prefix) {
        return Api.at(port).newOwner(prefix);
    }

    @Test
    void aGadgetIdWithADotIsNotPaired() {
        // the client-id rule rests on it: {gadgetId}.<suffix> is never another gadget's id
        Api alice = newOwner("alice");

        var dotted = alice.post("/api/v1/gadgets", "{\"id\":\"desk." + UUID.randomUUID().toString().substring(0, 8)
                + "\",\"name\":\"dotted\"}");

        assertThat(dotted.status()).isEqualTo(400);
    }

    @Test
    void aRefusedPublishIsAcknowledgedAndDiscardedSoTheDeviceDoesNotWait() throws Exception {
        // Mosquitto's way under MQTT 3.1.1 (the embedded broker closes the connection instead)
        Api alice = newOwner("alice");
        String id = "t" + UUID.randomUUID().toString().substring(0, 8);
        String password = alice.post("/api/v1/gadgets", "{\"id\":\"" + id + "\",\"name\":\"x\"}")
                .json().at("/mqtt/password").asText();

        try (DeviceConnection device = DeviceConnection.open(brokerUrl(), id, id, password)) {
            device.subscribe(Topics.of(id, Topics.INVOKE));
            IMqttDeliveryToken refused = device.publish(Topics.of(id, Topics.INVOKE), "{}");

            refused.waitForCompletion(NOTICED_WITHIN.toMillis());
            assertThat(refused.isComplete()).isTrue();
            Awaitility.await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2))
                    .until(() -> device.received().isEmpty());
            assertThat(device.holds()).isTrue();
        }
    }
}
