package dev.ringzero.bench;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.firmware.NoDelaySocketFactory;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttCallback;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

/**
 * Floor A, measured in the same run on the same broker: a client publishes (QoS 1) on one topic,
 * a thin echo client republishes on another, the first measures publish → receive. Two hops through
 * the broker, like link.event → platform → link.invoke. Both use the platform's own broker
 * credential (client ids {@code ringzero-platform-floor-…}) on topics outside the gadgets' tree,
 * so the platform never sees this traffic: a gadget's credential may no longer publish to a topic
 * it can read (CONTRACTS.md §1), so no pair of device connections can echo each other.
 */
final class MqttFloor {

    private MqttFloor() {
    }

    static ObjectNode run(String brokerUrl, String serviceUser, String password, String runId, double rate,
            int seconds) throws MqttException, InterruptedException {
        String ping = "ringzero/v1/floor/" + runId + "/ping";
        String pong = "ringzero/v1/floor/" + runId + "/pong";
        int count = (int) Math.round(rate * seconds);
        AtomicLongArray sentAt = new AtomicLongArray(count);
        Latency latency = new Latency();
        AtomicLong received = new AtomicLong();

        MqttAsyncClient echo = client(brokerUrl, serviceUser + "-floor-echo-" + runId);
        MqttAsyncClient pinger = client(brokerUrl, serviceUser + "-floor-ping-" + runId);
        try {
            echo.setCallback(new Callback() {
                @Override
                public void messageArrived(String topic, MqttMessage message) throws MqttException {
                    echo.publish(pong, message.getPayload(), 1, false);
                }
            });
            pinger.setCallback(new Callback() {
                @Override
                public void messageArrived(String topic, MqttMessage message) {
                    long now = System.nanoTime();
                    int k = (int) ByteBuffer.wrap(message.getPayload()).getLong();
                    long t0 = sentAt.getAndSet(k, 0);
                    if (t0 != 0) {
                        latency.recordNanos(now - t0);
                        received.incrementAndGet();
                    }
                }
            });
            connect(echo, serviceUser, password);
            connect(pinger, serviceUser, password);
            echo.subscribe(ping, 1).waitForCompletion(5_000);
            pinger.subscribe(pong, 1).waitForCompletion(5_000);

            OpenLoop loop = new OpenLoop();
            loop.run(rate, count, k -> {
                sentAt.set((int) k, System.nanoTime());
                try {
                    pinger.publish(ping, ByteBuffer.allocate(64).putLong(k).array(), 1, false);
                } catch (MqttException e) {
                    throw new IllegalStateException("floor publish failed", e);
                }
            });
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (received.get() < count && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            ObjectNode out = latency.toJson();
            out.put("rate_per_s", rate);
            out.put("seconds", seconds);
            out.put("sent", count);
            out.put("lost", count - received.get());
            out.set("send_lag", loop.lag().toJson());
            return out;
        } finally {
            close(pinger);
            close(echo);
        }
    }

    private static MqttAsyncClient client(String url, String clientId) throws MqttException {
        return new MqttAsyncClient(url, clientId, new MemoryPersistence());
    }

    private static void connect(MqttAsyncClient c, String user, String password) throws MqttException {
        // the boards' own factory: TCP_NODELAY, as every client on the link sets it
        MqttConnectOptions o = new MqttConnectOptions();
        o.setUserName(user);
        o.setPassword(password.toCharArray());
        o.setCleanSession(true);
        o.setMaxInflight(10_000);
        o.setSocketFactory(NoDelaySocketFactory.forUrl(c.getServerURI()));
        c.connect(o).waitForCompletion(10_000);
    }

    private static void close(MqttAsyncClient c) {
        try {
            if (c.isConnected()) {
                c.disconnect().waitForCompletion(2_000);
            }
            c.close();
        } catch (MqttException e) {
            // best effort
        }
    }

    private abstract static class Callback implements MqttCallback {
        @Override
        public void connectionLost(Throwable cause) {
            System.err.println("floor client lost its link: " + cause);
        }

        @Override
        public void deliveryComplete(IMqttDeliveryToken token) {
        }
    }
}
