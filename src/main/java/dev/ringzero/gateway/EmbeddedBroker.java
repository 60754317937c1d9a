package dev.ringzero.gateway;

import java.io.IOException;
import java.util.Properties;

import dev.ringzero.accounts.Tokens;
import dev.ringzero.gadgets.GadgetStore;
import io.moquette.broker.ClientDescriptor;
import io.moquette.broker.Server;
import io.moquette.broker.config.MemoryConfig;
import io.moquette.broker.security.IAuthenticator;
import io.moquette.broker.security.IAuthorizatorPolicy;
import io.moquette.broker.subscriptions.Topic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The zero-setup broker: Moquette in the platform's JVM. Identity is enforced exactly as the
 * production Mosquitto does it: a device logs in with its own credential, its client id is its
 * gadget id (or {@code id-suffix}), and it may publish and subscribe only under its own subtree.
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
    private Server server;

    public EmbeddedBroker(MqttSettings settings, String servicePassword, GadgetStore gadgets) {
        this.settings = settings;
        this.servicePassword = servicePassword;
        this.gadgets = gadgets;
    }

    @Override
    public void start() {
        Properties properties = new Properties();
        properties.setProperty("host", settings.host());
        properties.setProperty("port", String.valueOf(settings.port()));
        properties.setProperty("websocket_port", "disabled");
        properties.setProperty("allow_anonymous", "false");
        properties.setProperty("persistence_enabled", "false");
        // Moquette keeps a broker id file; keep it out of the working directory
        java.nio.file.Path dataPath = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"),
                "ringzero-moquette-" + settings.port());
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
            server.startServer(new MemoryConfig(properties), null, null, new Authenticator(), new Authorizer());
        } catch (IOException e) {
            throw new IllegalStateException("the embedded MQTT broker cannot listen on " + settings.url()
                    + " (is the port taken? set ringzero.mqtt.port)", e);
        }
        log.info("embedded MQTT broker listening on {}", settings.url());
    }

    @Override
    public void stop() {
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

    static boolean belongsTo(String gadgetId, String clientId) {
        return clientId.equals(gadgetId) || clientId.startsWith(gadgetId + "-");
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

    private final class Authorizer implements IAuthorizatorPolicy {
        @Override
        public boolean canWrite(Topic topic, String user, String client) {
            return allowed(topic.toString(), user);
        }

        @Override
        public boolean canRead(Topic topic, String user, String client) {
            return allowed(topic.toString(), user);
        }

        private boolean allowed(String topic, String user) {
            return settings.serviceUsername().equals(user) || Topics.ownedBy(user, topic);
        }
    }
}
