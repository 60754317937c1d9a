package dev.ringzero.gateway;

import java.nio.charset.StandardCharsets;

import dev.ringzero.gadgets.PairingLink;
import org.springframework.stereotype.Component;

/** Pairing's {@link PairingLink} over MQTT: the control and status topics of the gadget. */
@Component
class MqttPairingLink implements PairingLink {

    private static final byte[] UNPAIRED = "{\"type\":\"event\",\"event\":\"link.unpaired\"}"
            .getBytes(StandardCharsets.UTF_8);

    private final LinkPublisher publisher;
    private final MqttSettings mqtt;

    MqttPairingLink(LinkPublisher publisher, MqttSettings mqtt) {
        this.publisher = publisher;
        this.mqtt = mqtt;
    }

    @Override
    public String brokerUrl() {
        return mqtt.url();
    }

    @Override
    public boolean reserved(String gadgetId) {
        return gadgetId.startsWith(mqtt.serviceUsername());
    }

    @Override
    public void tellUnpaired(String gadgetId) {
        publisher.publish(gadgetId, Topics.CONTROL, UNPAIRED);
    }

    @Override
    public void clearPresence(String gadgetId) {
        publisher.publish(Topics.of(gadgetId, Topics.STATUS), new byte[0], true);
    }
}
