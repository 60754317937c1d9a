package dev.ringzero.gateway;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.ringzero.cluster.ClusterSettings;
import dev.ringzero.cluster.PartitionOwner;
import dev.ringzero.cluster.Partitions;
import org.eclipse.paho.client.mqttv3.IMqttActionListener;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.IMqttToken;
import org.eclipse.paho.client.mqttv3.MqttCallbackExtended;
import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node of a cluster takes the gadgets' own messages (events, registrations, presence) through
 * one MQTT session per partition it holds. The session's client id is the partition's, not the
 * node's ({@code ringzero-platform-p3}), and it is persistent: what the gadgets of partition 3
 * publish while nobody holds it (its node died, it is moving) waits in the broker for whichever
 * node connects as {@code -p3} next, and a second connection under that id would end the first,
 * so two nodes never take one partition's messages at once even if their leases disagreed.
 *
 * <p>Every partition's session receives every gadget's messages (a topic filter cannot select
 * by hash) and acknowledges the ones of other partitions at once; its own go to the
 * {@link LinkGateway} as on one node, in the order they came, so a gadget's events are admitted
 * in order on one node at a time. The cost is a broker delivery per partition per message
 * (docs/scaling.md says when a broker with sticky shared subscriptions replaces it).
 *
 * <p>Giving a partition up disconnects its session first (the broker keeps what was not
 * acknowledged), then waits for the messages already handed on to be settled (stored and
 * acknowledged, or handed back), so the next holder starts after this node has finished.
 */
class PartitionLinks implements PartitionOwner {

    /** Where a partition's own messages go: the {@link LinkGateway} ({@code accept}). */
    interface Inbound {
        void accept(String topic, byte[] payload, boolean redelivered, Runnable acknowledge);
    }

    private static final Logger log = LoggerFactory.getLogger(PartitionLinks.class);
    /** How long giving up waits for the messages already handed on. */
    static final long SETTLE_MILLIS = 10_000;
    private static final String[] FILTERS = Topics.INBOUND;

    private final MqttSettings mqtt;
    private final String password;
    /** A partition's session is this followed by its number: the same on every node. */
    private final String sessionPrefix;
    private final ClusterSettings cluster;
    private final Inbound gateway;
    private final Map<Integer, Link> links = new ConcurrentHashMap<>();
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "partition-links");
        thread.setDaemon(true);
        return thread;
    });

    PartitionLinks(MqttSettings mqtt, String password, ClusterSettings cluster, Inbound gateway) {
        this(mqtt, password, mqtt.serviceUsername() + "-p", cluster, gateway);
    }

    PartitionLinks(MqttSettings mqtt, String password, String sessionPrefix, ClusterSettings cluster,
            Inbound gateway) {
        this.sessionPrefix = sessionPrefix;
        this.mqtt = mqtt;
        this.password = password;
        this.cluster = cluster;
        this.gateway = gateway;
    }

    @Override
    public void take(int partition) {
        Link link = new Link(partition);
        Link before = links.put(partition, link);
        if (before != null) {
            before.close();
        }
        link.connect();
    }

    @Override
    public void giveUp(int partition) {
        Link link = links.remove(partition);
        if (link != null) {
            link.close();
        }
    }

    /**
     * Whether this node's session of {@code partition} is connected and subscribed (for tests and
     * health): a session's first connection takes nothing until the broker has its subscription.
     */
    boolean connected(int partition) {
        Link link = links.get(partition);
        return link != null && link.taking();
    }

    /** The partitions this node takes now, each with whether its session is taking messages (health). */
    java.util.SortedMap<Integer, Boolean> sessions() {
        java.util.SortedMap<Integer, Boolean> sessions = new java.util.TreeMap<>();
        links.forEach((partition, link) -> sessions.put(partition, link.taking()));
        return sessions;
    }

    void stop() {
        links.keySet().forEach(this::giveUp);
        retries.shutdownNow();
    }

    /** One partition's session: its client, and the messages handed on and not yet settled. */
    private final class Link implements MqttCallbackExtended {

        final int partition;
        /**
         * Asynchronous on purpose: a persistent session's backlog arrives with the connection, and
         * Paho's callback queue holds only a few messages, so a blocking subscribe on its callback
         * thread waited for an acknowledgement its full queue kept it from reading (a node taking
         * over a partition with a backlog took nothing until it let go again).
         */
        final MqttAsyncClient client;
        final AtomicInteger handedOn = new AtomicInteger();
        volatile boolean closed;
        /** The broker acknowledged this connection's subscription. */
        volatile boolean subscribed;

        Link(int partition) {
            this.partition = partition;
            try {
                this.client = new MqttAsyncClient(mqtt.url(), sessionPrefix + partition,
                        new MemoryPersistence());
            } catch (MqttException e) {
                throw new IllegalStateException("cannot make the MQTT client of partition " + partition, e);
            }
            client.setManualAcks(true);
            client.setCallback(this);
        }

        void connect() {
            if (closed) {
                return;
            }
            // a persistent session: the partition's messages wait for its next holder
            MqttConnectOptions options = MqttConfig.connectOptions(mqtt, password, false);
            try {
                client.connect(options, null, new IMqttActionListener() {
                    @Override
                    public void onSuccess(IMqttToken token) {
                        // subscribed in connectComplete, which every connection calls
                    }

                    @Override
                    public void onFailure(IMqttToken token, Throwable failure) {
                        retryConnect(failure);
                    }
                });
            } catch (MqttException e) {
                retryConnect(e);
            }
        }

        /** The broker is away: automatic reconnection only follows a first connection. */
        private void retryConnect(Throwable failure) {
            if (!closed) {
                log.warn("partition {} cannot connect yet ({}); trying again in 1 s", partition, failure.toString());
                retries.schedule(this::connect, 1, TimeUnit.SECONDS);
            }
        }

        /** Subscribes on every connection: a broker that lost the session lost its subscriptions too. */
        @Override
        public void connectComplete(boolean reconnect, String serverURI) {
            subscribed = false;
            try {
                client.subscribe(FILTERS, new int[] {1, 1, 1}, null, new IMqttActionListener() {
                    @Override
                    public void onSuccess(IMqttToken token) {
                        subscribed = true; // taking the partition's messages
                    }

                    @Override
                    public void onFailure(IMqttToken token, Throwable failure) {
                        log.warn("partition {} not subscribed ({}); reconnecting", partition, failure.toString());
                        retries.execute(Link.this::reconnect);
                    }
                });
            } catch (MqttException e) {
                log.warn("partition {} not subscribed ({}); reconnecting", partition, e.toString());
                retries.execute(this::reconnect);
            }
        }

        private void reconnect() {
            if (closed) {
                return;
            }
            try {
                client.disconnectForcibly(0, 500);
            } catch (MqttException e) {
                // it was down already
            }
            connect();
        }

        @Override
        public void messageArrived(String topic, MqttMessage message) {
            if (closed) {
                return; // unacknowledged: the partition's next holder gets it
            }
            boolean ours = Topics.parse(topic)
                    .map(parsed -> Partitions.of(parsed.gadgetId(), cluster.partitions()) == partition)
                    .orElse(false);
            if (!ours) {
                acknowledge(message);
                return;
            }
            handedOn.incrementAndGet();
            AtomicBoolean settled = new AtomicBoolean();
            gateway.accept(topic, message.getPayload(), message.isDuplicate(), () -> {
                if (settled.compareAndSet(false, true)) {
                    try {
                        acknowledge(message);
                    } finally {
                        handedOn.decrementAndGet();
                    }
                }
            });
        }

        private void acknowledge(MqttMessage message) {
            try {
                client.messageArrivedComplete(message.getId(), message.getQos());
            } catch (MqttException | RuntimeException e) {
                // the session is gone or moved on: its next connection gets the message again
                log.debug("partition {} could not acknowledge a message: {}", partition, e.toString());
            }
        }

        boolean taking() {
            return subscribed && client.isConnected();
        }

        @Override
        public void connectionLost(Throwable cause) {
            subscribed = false;
            log.warn("partition {}'s session lost its connection: {}", partition, cause.toString());
        }

        @Override
        public void deliveryComplete(IMqttDeliveryToken token) {
            // this session publishes nothing
        }

        /** Disconnects (the broker keeps the rest), then waits for what was handed on to settle. */
        void close() {
            closed = true;
            try {
                if (client.isConnected()) {
                    // no quiescing: what was handed on is waited for below
                    client.disconnect(0).waitForCompletion(1_000);
                }
            } catch (MqttException e) {
                try {
                    client.disconnectForcibly(0, 500);
                } catch (MqttException ignored) {
                    // gone already
                }
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS);
            while (handedOn.get() > 0 && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            if (handedOn.get() > 0) {
                log.warn("partition {} given up with {} message(s) still being admitted", partition, handedOn.get());
            }
            try {
                if (client.isConnected()) {
                    client.disconnectForcibly(0, 500); // a connection that completed while this one let go
                }
                client.close(true);
            } catch (MqttException e) {
                log.debug("partition {}'s client not closed: {}", partition, e.toString());
            }
        }
    }
}
