package dev.ringzero.gateway;

import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.paho.client.mqttv3.IMqttActionListener;
import org.eclipse.paho.client.mqttv3.IMqttAsyncClient;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.IMqttToken;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.integration.mqtt.core.ClientManager;

/**
 * How {@code link.invoke} leaves: handed to the outbound connection at QoS 1 without waiting for
 * the broker's acknowledgement. The dispatcher records an invocation before it publishes and
 * settles it by the device's answer or by its deadline, never by the acknowledgement, so waiting
 * for it bought nothing but a routing lane held for a broker round trip, and every event queued on
 * that lane waited too (the twenty-sixth benchmark series found such waits of up to ~60 ms beside
 * fifty llm sessions). A broker that falls behind still slows the callers: once more than
 * {@link #BEHIND} invokes await their acknowledgement, the next one waits for its own, as every
 * invoke did before, so the backlog stays far below Paho's in-flight limit. The outlet counts them
 * itself: Paho's own in-flight count rises only when its sender thread gets to a message.
 */
final class InvokeOutlet {

    private static final Logger log = LoggerFactory.getLogger(InvokeOutlet.class);
    /** Unacknowledged invokes beyond which an invoke waits for its acknowledgement (Paho refuses past 1,000). */
    static final int BEHIND = 200;

    private final ClientManager<IMqttAsyncClient, ?> connection;
    private final long waitMillis;
    private final AtomicInteger unacknowledged = new AtomicInteger();
    private final IMqttActionListener settled = new Settled();

    InvokeOutlet(ClientManager<IMqttAsyncClient, ?> connection, long waitMillis) {
        this.connection = connection;
        this.waitMillis = waitMillis;
    }

    /** Publishes at QoS 1; returns once Paho has it, or once the broker has it if the broker lags. */
    void send(String topic, byte[] envelope) {
        IMqttAsyncClient client = connection.getClient();
        if (client == null || !client.isConnected()) {
            throw new IllegalStateException("no connection to the broker: " + topic + " not published");
        }
        int behind = unacknowledged.incrementAndGet();
        IMqttDeliveryToken token;
        try {
            token = client.publish(topic, envelope, 1, false, null, settled);
        } catch (MqttException | RuntimeException e) {
            unacknowledged.decrementAndGet(); // refused at once: the listener will never hear of it
            throw notPublished(topic, e);
        }
        if (behind > BEHIND) {
            try {
                token.waitForCompletion(waitMillis);
            } catch (MqttException e) {
                throw notPublished(topic, e);
            }
        }
    }

    /** Invokes handed to the connection whose acknowledgement (or failure) has not come yet. */
    int unacknowledged() {
        return unacknowledged.get();
    }

    private static IllegalStateException notPublished(String topic, Exception cause) {
        return new IllegalStateException("link.invoke to " + topic + " not published: " + cause.getMessage(), cause);
    }

    /**
     * Settles the count; a publish the broker never acknowledged leaves its invocation to end at
     * its deadline, unknown, as any unanswered one.
     */
    private final class Settled implements IMqttActionListener {

        @Override
        public void onSuccess(IMqttToken token) {
            unacknowledged.decrementAndGet();
        }

        @Override
        public void onFailure(IMqttToken token, Throwable cause) {
            unacknowledged.decrementAndGet();
            log.warn("the broker did not acknowledge a link.invoke to {} ({}); its invocation ends at its deadline",
                    String.join(",", token.getTopics() == null ? new String[0] : token.getTopics()),
                    cause == null ? "no reason given" : cause.getMessage());
        }
    }
}
