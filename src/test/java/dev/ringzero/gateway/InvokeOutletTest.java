package dev.ringzero.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.ringzero.support.RealServices;
import org.eclipse.paho.client.mqttv3.IMqttMessageListener;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.Test;
import org.springframework.integration.mqtt.core.Mqttv3ClientManager;

/**
 * {@code link.invoke} leaves without holding its caller for the broker's acknowledgement, unless
 * the broker has fallen behind; and without a connection it is refused in words, not lost quietly.
 */
class InvokeOutletTest {

    private static final String TOPIC = "ringzero/v1/outlet-g/invoke";

    @Test
    void anInvokeReachesTheGadgetThroughTheRealBroker() throws Exception {
        RealServices.start();
        Mqttv3ClientManager connection = manager(RealServices.mqttPort());
        MqttClient gadget = new MqttClient(RealServices.mqttUrl(), "ringzero-platform-outlet-g", new MemoryPersistence());
        try {
            gadget.connect(options(RealServices.mqttPort()));
            BlockingQueue<String> received = new ArrayBlockingQueue<>(1);
            gadget.subscribe(new String[] {TOPIC}, new int[] {1}, new IMqttMessageListener[] {
                    (topic, message) -> received.add(new String(message.getPayload(), StandardCharsets.UTF_8))});

            InvokeOutlet underTest = new InvokeOutlet(connection, 5_000);
            underTest.send(TOPIC, "{\"id\":\"i-1\"}".getBytes(StandardCharsets.UTF_8));

            assertThat(received.poll(5, TimeUnit.SECONDS)).isEqualTo("{\"id\":\"i-1\"}");
            // the broker's acknowledgement settles the count, so later invokes need not wait
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (underTest.unacknowledged() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(underTest.unacknowledged()).isZero();
        } finally {
            gadget.disconnect();
            gadget.close();
            connection.stop();
        }
    }

    /**
     * A broker that accepts the connection and never acknowledges a publish: the first
     * {@value InvokeOutlet#BEHIND} invokes leave at once (a lane is not held for a round trip),
     * the next one waits for its acknowledgement and fails when it does not come.
     */
    @Test
    void onlyAnInvokeBeyondTheUnacknowledgedBoundWaitsForTheBroker() throws Exception {
        SilentBroker broker = new SilentBroker();
        Mqttv3ClientManager connection = manager(broker.port());
        try {
            InvokeOutlet underTest = new InvokeOutlet(connection, 300);
            // had any of these waited for its acknowledgement, it would have failed after 300 ms
            for (int i = 0; i < InvokeOutlet.BEHIND; i++) {
                underTest.send(TOPIC, new byte[] {'{', '}'});
            }

            assertThatIllegalStateException().isThrownBy(() -> underTest.send(TOPIC, new byte[] {'{', '}'}))
                    .withMessageContaining("not published").withMessageContaining(TOPIC);
        } finally {
            // no quiescing: the connection's manager would wait 30 s for acknowledgements that never come
            connection.getClient().disconnectForcibly(0, 1_000);
            connection.getClient().close();
            broker.close();
        }
    }

    @Test
    void withoutAConnectionAnInvokeIsRefusedInWords() {
        // never started: no client, as before the platform's connection is up
        Mqttv3ClientManager connection = new Mqttv3ClientManager(options(1),
                "ringzero-platform-outlet-none");

        assertThatIllegalStateException()
                .isThrownBy(() -> new InvokeOutlet(connection, 300).send(TOPIC, new byte[] {'{', '}'}))
                .withMessage("no connection to the broker: " + TOPIC + " not published");
    }

    private static Mqttv3ClientManager manager(int port) {
        Mqttv3ClientManager manager = new Mqttv3ClientManager(options(port),
                "ringzero-platform-outlet-" + System.nanoTime());
        manager.setPersistence(new MemoryPersistence());
        manager.start();
        return manager;
    }

    /** The platform's own connection options (its in-flight limit among them), on the given port. */
    private static MqttConnectOptions options(int port) {
        MqttSettings settings = new MqttSettings(false, "127.0.0.1", port, "ringzero-platform",
                RealServices.MQTT_SERVICE_PASSWORD, "outlet", null);
        return MqttConfig.connectOptions(settings, RealServices.MQTT_SERVICE_PASSWORD, true);
    }

    /** Accepts one MQTT connection, answers its CONNECT, and then reads and drops everything. */
    private static final class SilentBroker implements AutoCloseable {

        private final ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        private final Thread thread = new Thread(this::serve, "silent-broker");
        private volatile Socket client;

        SilentBroker() throws IOException {
            thread.setDaemon(true);
            thread.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        private void serve() {
            try (Socket accepted = socket.accept()) {
                client = accepted;
                DataInputStream in = new DataInputStream(accepted.getInputStream());
                OutputStream out = accepted.getOutputStream();
                skipPacket(in); // CONNECT
                out.write(new byte[] {0x20, 0x02, 0x00, 0x00}); // CONNACK, accepted
                out.flush();
                while (true) {
                    skipPacket(in); // PUBLISH and anything else, never acknowledged
                }
            } catch (IOException closed) {
                // the test is over
            }
        }

        private static void skipPacket(DataInputStream in) throws IOException {
            in.readUnsignedByte();
            int length = 0;
            int shift = 0;
            int digit;
            do {
                digit = in.readUnsignedByte();
                length |= (digit & 0x7f) << shift;
                shift += 7;
            } while ((digit & 0x80) != 0);
            in.skipNBytes(length);
        }

        @Override
        public void close() throws IOException {
            socket.close();
            if (client != null) {
                client.close();
            }
        }
    }
}
