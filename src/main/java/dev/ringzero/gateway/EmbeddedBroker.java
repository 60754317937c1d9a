package dev.ringzero.gateway;

import dev.ringzero.gadgets.BrokerAccess;
import java.io.IOException;
import java.util.Properties;

import dev.ringzero.accounts.Tokens;
import dev.ringzero.gadgets.GadgetStore;
import io.moquette.broker.ClientDescriptor;
import io.moquette.broker.Server;
import io.moquette.broker.config.MemoryConfig;
import io.moquette.broker.security.IAuthenticator;
import io.moquette.broker.security.IAuthorizatorPolicy;
import io.moquette.interception.AbstractInterceptHandler;
import io.moquette.interception.messages.InterceptConnectMessage;
import io.moquette.broker.subscriptions.Topic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The zero-setup broker: Moquette in the platform's JVM. Identity is enforced exactly as the
 * production Mosquitto does it: a device logs in with its own credential, its client id is its
 * gadget id (or {@code id.suffix}), and it may publish and subscribe only to its own topics, as
 * {@link DeviceRights} says. A refused publish closes the device's connection: Moquette would
 * otherwise drop it without a PUBACK, and a device waiting for one at QoS 1 would wait for ever.
 */
public class EmbeddedBroker implements SmartLifecycle, BrokerAccess {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedBroker.class);
    /**
     * Starts before the platform's MQTT client managers (phase 0) and stops after them: stopped
     * first, it cut their connections under them (ERROR "Connection lost"), and each manager's
     * disconnect then waited out Paho's 30 s quiesce, so a SIGTERM took 90 s to end the JVM.
     */
    static final int PHASE = -1000;

    private final MqttSettings settings;
    private final String servicePassword;
    private final GadgetStore gadgets;
    private final java.nio.file.Path dataPath;
    private final BoardFront front;
    private Server server;
    private volatile int brokerPort;

    public EmbeddedBroker(MqttSettings settings, String servicePassword, GadgetStore gadgets) {
        this(settings, servicePassword, gadgets, java.nio.file.Path.of(System.getProperty("java.io.tmpdir"),
                "ringzero-moquette-" + settings.port()));
    }

    /**
     * @param dataPath where Moquette keeps its files (its broker id; nothing of a message: what it
     *                 holds in memory matters to no one once {@link BoardFront} takes the boards' events)
     */
    public EmbeddedBroker(MqttSettings settings, String servicePassword, GadgetStore gadgets,
            java.nio.file.Path dataPath) {
        this.settings = settings;
        this.servicePassword = servicePassword;
        this.gadgets = gadgets;
        this.dataPath = dataPath;
        this.front = new BoardFront(settings.host(), settings.port(), "127.0.0.1",
                LinkLimits.MAX_MESSAGE_BYTES + 65_536, true);
    }

    @Override
    public void start() {
        Properties properties = new Properties();
        // the broker itself listens on a free loopback port, for the platform's own connections and
        // the board front; boards reach it through the front on settings.port(). Chosen here, not
        // with port 0: Moquette records the port it bound asynchronously (Server#getPort races it)
        brokerPort = freeLoopbackPort();
        properties.setProperty("host", "127.0.0.1");
        properties.setProperty("port", String.valueOf(brokerPort));
        properties.setProperty("websocket_port", "disabled");
        properties.setProperty("allow_anonymous", "false");
        // Moquette's persistence would not make an acknowledged event durable: it acknowledges a
        // publish once queued in memory, and keeps what is in flight to a subscriber in memory
        // whatever its storage (Moquette 0.17 PostOffice#receivedPublishQos1, Session#sendPublishQos1)
        properties.setProperty("persistence_enabled", "false");
        try {
            java.nio.file.Files.createDirectories(dataPath);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the embedded broker's data folder " + dataPath, e);
        }
        properties.setProperty("data_path", dataPath.toString());
        // Moquette reports usage to its authors by default; a gadget platform's broker phones nobody
        properties.setProperty("telemetry_enabled", "false");
        properties.setProperty("netty.tcp_nodelay", "true");
        properties.setProperty("immediate_buffer_flush", "true");
        // above the link's 256 KiB limit, so the gateway (not the broker) rejects and counts oversized messages
        properties.setProperty("netty.mqtt.message_size", String.valueOf(LinkLimits.MAX_MESSAGE_BYTES + 65_536));
        server = new Server();
        try {
            server.startServer(new MemoryConfig(properties), java.util.List.of(new ConnectedSignal()), null,
                    new Authenticator(), new Authorizer());
        } catch (IOException e) {
            throw new IllegalStateException("the embedded MQTT broker cannot listen on " + settings.url()
                    + " (is the port taken? set ringzero.mqtt.port)", e);
        }
        try {
            front.start(brokerPort);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while opening " + settings.url(), e);
        } catch (RuntimeException e) {
            server.stopServer();
            server = null;
            throw new IllegalStateException("the embedded MQTT broker cannot listen on " + settings.url()
                    + " (is the port taken? set ringzero.mqtt.port)", e);
        }
        log.info("embedded MQTT broker listening on {}", settings.url());
    }

    private static int freeLoopbackPort() {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free loopback port for the embedded broker", e);
        }
    }

    /** The broker's own address, for the platform's connections (the boards' is {@link MqttSettings#url}). */
    public String clientUrl() {
        if (server == null) {
            throw new IllegalStateException("the embedded broker is not running");
        }
        return "tcp://127.0.0.1:" + brokerPort;
    }

    /** Boards' events and answers go to {@code handoff} from now on (until then they wait, unacknowledged). */
    void deliverBoardMessagesTo(BoardFront.Handoff handoff) {
        front.deliverTo(handoff);
    }

    /** No board may reach the platform any more; the broker itself stays for the platform's connections. */
    void closeToBoards() {
        front.stop();
    }

    @Override
    public void stop() {
        front.stop();
        if (server != null) {
            server.stopServer();
            server = null;
        }
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    @Override
    public void provision(String gadgetId, String password) {
        // nothing to do: the authenticator reads the platform's (hashed) credentials on connect
    }

    @Override
    public void revoke(String gadgetId) {
        if (server == null) {
            return;
        }
        for (ClientDescriptor client : server.listConnectedClients()) {
            if (belongsTo(gadgetId, client.getClientID())) {
                server.disconnectClient(client.getClientID());
            }
        }
    }

    /** None: the authenticator reads the platform's credentials on every connect. */
    @Override
    public java.util.Set<String> credentialed() {
        return java.util.Set.of();
    }

    static boolean belongsTo(String gadgetId, String clientId) {
        return DeviceRights.ownsClientId(gadgetId, clientId);
    }

    private final class Authenticator implements IAuthenticator {
        @Override
        public boolean checkValid(String clientId, String username, byte[] password) {
            if (username == null || password == null || clientId == null) {
                return false;
            }
            String secret = new String(password, java.nio.charset.StandardCharsets.UTF_8);
            if (username.equals(settings.serviceUsername())) {
                return secret.equals(servicePassword) && clientId.startsWith(settings.serviceUsername());
            }
            return belongsTo(username, clientId) && gadgets.find(username)
                    .filter(GadgetStore.Row::paired)
                    .map(row -> Tokens.sameHash(row.credentialHash(), Tokens.sha256(secret)))
                    .orElse(false);
        }
    }

    /**
     * Tells the board front that the broker has marked a connection connected (Moquette notifies
     * its interceptors right after), so the board's CONNACK may go on: see {@link BoardFront}.
     * Only connections are intercepted: a publish would be copied for nothing.
     */
    private final class ConnectedSignal extends AbstractInterceptHandler {
        @Override
        public String getID() {
            return "ringzero-board-front";
        }

        @Override
        public Class<?>[] getInterceptedMessageTypes() {
            return new Class<?>[] {InterceptConnectMessage.class};
        }

        @Override
        public void onConnect(InterceptConnectMessage msg) {
            front.brokerConnected(msg.getClientID());
        }

        @Override
        public void onSessionLoopError(Throwable error) {
            log.warn("the embedded broker's session loop failed", error);
        }
    }

    private final class Authorizer implements IAuthorizatorPolicy {
        @Override
        public boolean canWrite(Topic topic, String user, String client) {
            if (settings.serviceUsername().equals(user) || DeviceRights.mayPublish(user, topic.toString())) {
                return true;
            }
            disconnectLater(client, topic);
            return false;
        }

        @Override
        public boolean canRead(Topic topic, String user, String client) {
            return settings.serviceUsername().equals(user) || DeviceRights.maySubscribe(user, topic.toString());
        }

        /**
         * MQTT 3.1.1 (§3.3.5) leaves a broker that refuses a publish two choices: acknowledge it
         * anyway or close the network connection. Moquette 0.17 does neither (it drops the message
         * and sends no PUBACK) and offers no way to acknowledge from here, so the connection is
         * closed, which the client notices at once. Not from inside the check: it runs on the
         * client's session loop, which is still handling this very publish.
         */
        private void disconnectLater(String client, Topic topic) {
            log.info("closing MQTT client {}: it may not publish to {}", client, topic);
            java.util.concurrent.CompletableFuture.runAsync(() -> {
                Server running = server;
                if (running != null && client != null) {
                    running.disconnectClient(client);
                }
            });
        }
    }
}
