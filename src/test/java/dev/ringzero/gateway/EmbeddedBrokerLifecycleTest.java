package dev.ringzero.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.junit.jupiter.api.Test;
import org.springframework.integration.mqtt.core.Mqttv3ClientManager;

class EmbeddedBrokerLifecycleTest {

    @Test
    void theEmbeddedBrokerStartsBeforeAndStopsAfterThePlatformsOwnMqttConnections() {
        // Spring starts lower phases first and stops them last
        MqttConnectOptions options = new MqttConnectOptions();
        options.setServerURIs(new String[] {"tcp://127.0.0.1:1"});
        int clients = new Mqttv3ClientManager(options, "phase-probe").getPhase();

        assertThat(EmbeddedBroker.PHASE).isLessThan(clients);
    }
}
