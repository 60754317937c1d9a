package dev.ringzero.gateway;

import org.springframework.integration.mqtt.support.MqttHeaders;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.messaging.MessageHandler;

/**
 * Ring 0's outbound side of the link: publishes through the shared platform connection. A
 * command reaches a device only through {@link #invoke}, which only the dispatcher's link calls
 * (an ArchUnit rule); every other publish refuses the invoke topic.
 */
public class LinkPublisher {

    private final MessageHandler outbound;
    private final InvokeOutlet invokes;

    LinkPublisher(MessageHandler outbound, InvokeOutlet invokes) {
        this.outbound = outbound;
        this.invokes = invokes;
    }

    /** Publishes at QoS 1 and returns once the broker has the message; never on an invoke topic. */
    public void publish(String topic, byte[] payload, boolean retained) {
        if (Topics.parse(topic).map(Topics.Parsed::suffix).filter(Topics.INVOKE::equals).isPresent()) {
            throw new IllegalArgumentException("link.invoke leaves only through the dispatcher: " + topic);
        }
        send(topic, payload, retained);
    }

    public void publish(String gadgetId, String suffix, byte[] payload) {
        publish(Topics.of(gadgetId, suffix), payload, false);
    }

    /**
     * A {@code link.invoke} envelope to the gadget's invoke topic: the dispatcher's way out. Unlike
     * {@link #publish} it does not wait for the broker's acknowledgement (see {@link InvokeOutlet}).
     */
    void invoke(String gadgetId, byte[] envelope) {
        invokes.send(Topics.of(gadgetId, Topics.INVOKE), envelope);
    }

    private void send(String topic, byte[] payload, boolean retained) {
        outbound.handleMessage(MessageBuilder.withPayload(payload)
                .setHeader(MqttHeaders.TOPIC, topic)
                .setHeader(MqttHeaders.QOS, 1)
                .setHeader(MqttHeaders.RETAINED, retained)
                .build());
    }
}
