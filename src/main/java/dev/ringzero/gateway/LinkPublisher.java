package dev.ringzero.gateway;

import org.springframework.integration.mqtt.support.MqttHeaders;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.messaging.MessageHandler;

/** Ring 0's outbound side of the link: publishes through the shared platform connection. */
public class LinkPublisher {

    private final MessageHandler outbound;

    public LinkPublisher(MessageHandler outbound) {
        this.outbound = outbound;
    }

    /** Publishes at QoS 1 and returns once the broker has the message. */
    public void publish(String topic, byte[] payload, boolean retained) {
        outbound.handleMessage(MessageBuilder.withPayload(payload)
                .setHeader(MqttHeaders.TOPIC, topic)
                .setHeader(MqttHeaders.QOS, 1)
                .setHeader(MqttHeaders.RETAINED, retained)
                .build());
    }

    public void publish(String gadgetId, String suffix, byte[] payload) {
        publish(Topics.of(gadgetId, suffix), payload, false);
    }
}
