package dev.ringzero.gateway;

import dev.ringzero.dispatch.InvokeLink;
import org.springframework.stereotype.Component;

/** The dispatcher's {@link InvokeLink} over MQTT: the gadget's invoke topic, QoS 1. */
@Component
class MqttInvokeLink implements InvokeLink {

    private final LinkPublisher publisher;

    MqttInvokeLink(LinkPublisher publisher) {
        this.publisher = publisher;
    }

    @Override
    public void invoke(String gadgetId, byte[] envelope) {
        publisher.invoke(gadgetId, envelope);
    }
}
