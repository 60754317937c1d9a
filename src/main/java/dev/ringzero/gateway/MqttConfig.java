package dev.ringzero.gateway;

import dev.ringzero.gadgets.BrokerAccess;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.accounts.Tokens;
import dev.ringzero.cluster.ClusterSettings;
import dev.ringzero.gadgets.GadgetStore;
import io.micrometer.core.instrument.MeterRegistry;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.channel.DirectChannel;
import org.springframework.integration.mqtt.core.Mqttv3ClientManager;
import org.springframework.integration.mqtt.inbound.MqttPahoMessageDrivenChannelAdapter;
import org.springframework.integration.mqtt.outbound.MqttPahoMessageHandler;
import org.springframework.integration.mqtt.support.DefaultPahoMessageConverter;
import org.springframework.integration.mqtt.support.MqttHeaders;
import org.springframework.messaging.MessageChannel;

/**
 * The platform's MQTT wiring: three Paho connections with the service credential and TCP_NODELAY
 * (device messages in, device answers in, everything out; the inbound two keep a persistent
 * session so QoS 1 messages wait for us across a restart), plus the broker-side identity
 * provisioning that matches the deployment shape.
 */
@Configuration
class MqttConfig {

    private static final Logger log = LoggerFactory.getLogger(MqttConfig.class);
    /** How long a publish that waits for the broker's acknowledgement waits at most. */
    private static final long PUBLISH_TIMEOUT_MS = 10_000;

    /** The password the platform uses on the broker: configured, or (embedded only) generated per start. */
    @Bean
    String mqttServicePassword(MqttSettings settings) {
        if (settings.servicePassword() != null && !settings.servicePassword().isBlank()) {
            return settings.servicePassword();
        }
        if (!settings.embedded()) {
            throw new IllegalStateException("ringzero.mqtt.service-password (RINGZERO_MQTT_SERVICE_PASSWORD) is "
                    + "required with an external broker; mqtt-broker/start.sh provisions the same value");
        }
        return Tokens.newSecret("svc_");
    }

    @Bean
    @ConditionalOnProperty(name = "ringzero.mqtt.embedded", havingValue = "true", matchIfMissing = true)
    EmbeddedBroker embeddedBroker(MqttSettings settings, @Qualifier("mqttServicePassword") String password,
            GadgetStore gadgets, @org.springframework.beans.factory.annotation.Value(
                    "${ringzero.mqtt.embedded-data-path:./data/moquette}") java.nio.file.Path dataPath) {
        return new EmbeddedBroker(settings, password, gadgets, dataPath);
    }

    /** Opens the embedded broker's board front to the gateway once the platform consumes (see the class). */
    @Bean
    @ConditionalOnProperty(name = "ringzero.mqtt.embedded", havingValue = "true", matchIfMissing = true)
    EmbeddedBoardDoor embeddedBoardDoor(EmbeddedBroker broker, LinkGateway gateway) {
        return new EmbeddedBoardDoor(broker, gateway);
    }

    @Bean
    @ConditionalOnProperty(name = "ringzero.mqtt.embedded", havingValue = "false")
    DynsecBrokerAccess dynsecBrokerAccess(LinkPublisher publisher, ObjectMapper json) {
        return new DynsecBrokerAccess(publisher, json);
    }

    /**
     * The inbound connection (device events, registrations, presence). It acknowledges messages by
     * hand: an event is acknowledged once it is stored with its runs, not when its handler returns
     * (the client manager, not the adapter, tells Paho so).
     */
    @Bean
    LinkClientManager mqttClientManager(MqttSettings settings, @Qualifier("mqttServicePassword") String password,
            java.util.Optional<EmbeddedBroker> embedded) {
        LinkClientManager manager = clientManager(settings, password, settings.clientId(), false, embedded);
        manager.setManualAcks(true);
        return manager;
    }

    /**
     * Outbound publishes get their own connection. Inbound messages are handled on the inbound
     * client's Paho callback thread, and Paho completes a QoS 1 publish on that same thread: a
     * synchronous publish from a handler (a register reply, a dynamic-security command) on a
     * shared client would wait for an acknowledgement that cannot be processed meanwhile.
     */
    @Bean
    Mqttv3ClientManager mqttOutboundClientManager(MqttSettings settings,
            @Qualifier("mqttServicePassword") String password, java.util.Optional<EmbeddedBroker> embedded) {
        return clientManager(settings, password, settings.clientId() + "-out", true, embedded);
    }

    /**
     * Device answers arrive on a connection of their own, with its own Paho thread: an answer
     * queued behind a burst of events would reach its run after the command's deadline and turn
     * a completed command into an unknown one. Acknowledged by hand, once the answer is recorded:
     * an answer acknowledged on arrival and held in memory when the node died was gone, and its run
     * ended unknown although the device had done its work (the benchmark's crash runs).
     */
    @Bean
    LinkClientManager mqttAnswersClientManager(MqttSettings settings,
            @Qualifier("mqttServicePassword") String password, java.util.Optional<EmbeddedBroker> embedded) {
        LinkClientManager manager = clientManager(settings, password, settings.clientId() + "-answers", false,
                embedded);
        manager.setManualAcks(true);
        return manager;
    }

    /**
     * A client manager that hands the adapter what no subscription's listener took. Paho gives a
     * message to the listener whose topic filter matches it, and no filter of a shared subscription
     * ({@code $share/group/…}, {@code ringzero.mqtt.shared-group}) matches any topic: its messages
     * go to the client's callback, the manager, which would drop them (and, with manual acks,
     * never acknowledge them, so the broker would stop delivering once its window is full).
     */
    static final class LinkClientManager extends Mqttv3ClientManager {

        private volatile org.eclipse.paho.client.mqttv3.MqttCallback unmatched;
        private final java.util.function.Supplier<String> url;

        LinkClientManager(MqttConnectOptions options, String clientId) {
            this(options, clientId, () -> options.getServerURIs()[0]);
        }

        LinkClientManager(MqttConnectOptions options, String clientId, java.util.function.Supplier<String> url) {
            super(options, clientId);
            this.url = url;
        }

        /** The embedded broker's own port is known once it has started, before this (see EmbeddedBroker.PHASE). */
        @Override
        public void start() {
            getConnectionInfo().setServerURIs(new String[] {url.get()});
            super.start();
        }

        void deliverUnmatchedTo(org.eclipse.paho.client.mqttv3.MqttCallback adapter) {
            this.unmatched = adapter;
        }

        /** What arrived before the adapter had started, in order (see messageArrived); guarded by itself. */
        private final List<Object[]> early = new ArrayList<>();
        private boolean adapterStarted;

        @Override
        public void messageArrived(String topic, org.eclipse.paho.client.mqttv3.MqttMessage message) {
            org.eclipse.paho.client.mqttv3.MqttCallback adapter = unmatched;
            if (adapter == null) {
                return;
            }
            synchronized (early) {
                if (!adapterStarted && adapter instanceof org.springframework.context.Lifecycle lifecycle
                        && !lifecycle.isRunning()) {
                    // A persistent session's backlog arrives with the connection, before the adapter has
                    // started and can acknowledge anything: handed to it, the first message failed
                    // ("Client has changed"), Paho dropped the connection, the adapter's subscribing
                    // failed, and the node took no event until its next restart (the fault suite,
                    // production shape). They wait here, unacknowledged, for the adapter's start.
                    early.add(new Object[] {topic, message});
                    return;
                }
                deliver(adapter, topic, message);
            }
        }

        /** The adapter has started: what came before goes to it now, in the order it came. */
        void adapterStarted() {
            synchronized (early) {
                adapterStarted = true;
                for (Object[] waiting : early) {
                    try {
                        deliver(unmatched, (String) waiting[0], (org.eclipse.paho.client.mqttv3.MqttMessage) waiting[1]);
                    } catch (RuntimeException e) {
                        // unacknowledged: the broker delivers it again on the next connection
                        log.warn("a message that arrived before {} had started was not taken: {}", getClientId(),
                                e.toString());
                    }
                }
                early.clear();
            }
        }

        private static void deliver(org.eclipse.paho.client.mqttv3.MqttCallback adapter, String topic,
                org.eclipse.paho.client.mqttv3.MqttMessage message) {
            try {
                adapter.messageArrived(topic, message);
            } catch (RuntimeException e) {
                throw e; // as from the adapter's own listener: Paho drops the connection, the broker redelivers
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * How every connection of the platform logs in to the broker: the service credential,
     * TCP_NODELAY, automatic reconnection. {@code cleanSession} false for inbound connections: a
     * persistent session, so QoS 1 messages published while the platform is down wait for it.
     */
    static MqttConnectOptions connectOptions(MqttSettings settings, String password, boolean cleanSession) {
        MqttConnectOptions options = new MqttConnectOptions();
        options.setServerURIs(new String[] {settings.url()});
        options.setUserName(settings.serviceUsername());
        options.setPassword(password.toCharArray());
        options.setSocketFactory(new NoDelaySocketFactory());
        options.setAutomaticReconnect(true);
        options.setMaxReconnectDelay(5_000);
        options.setCleanSession(cleanSession);
        options.setMaxInflight(1_000);
        options.setKeepAliveInterval(30);
        return options;
    }

    private static LinkClientManager clientManager(MqttSettings settings, String password, String clientId,
            boolean cleanSession, java.util.Optional<EmbeddedBroker> embedded) {
        MqttConnectOptions options = connectOptions(settings, password, cleanSession);
        // the platform's connections go to the embedded broker itself; boards reach it through its front
        LinkClientManager manager = new LinkClientManager(options, clientId,
                embedded.<java.util.function.Supplier<String>>map(broker -> broker::clientUrl).orElse(settings::url));
        // at a stop Paho sends DISCONNECT and then waits this long for a completion that does not come
        // (the broker just closes the socket): 5 s per connection by default, 15 s of every stop
        manager.setDisconnectCompletionTimeout(500);
        manager.setPersistence(new org.eclipse.paho.client.mqttv3.persist.MemoryPersistence());
        return manager;
    }

    /** A node of a cluster takes its partitions' gadget messages through sessions of their own. */
    @Bean(destroyMethod = "stop")
    @ConditionalOnProperty(name = "ringzero.cluster.enabled", havingValue = "true")
    PartitionLinks partitionLinks(MqttSettings settings, @Qualifier("mqttServicePassword") String password,
            ClusterSettings cluster, LinkGateway gateway) {
        if (settings.embedded()) {
            throw new IllegalStateException("ringzero.cluster.enabled needs a broker all nodes share: set "
                    + "ringzero.mqtt.embedded=false (the mosquitto profile) and a shared PostgreSQL (the postgres "
                    + "profile)");
        }
        return new PartitionLinks(settings, password, cluster, gateway::accept);
    }

    @Bean
    MessageChannel linkInbound() {
        return new DirectChannel();
    }

    /**
     * The inbound connection's subscriptions. On a node of a cluster the gadgets' own messages come
     * through the sessions of the partitions it holds ({@link PartitionLinks}); this connection
     * then takes only the dynamic-security answers meant for this node.
     */
    @Bean
    MqttPahoMessageDrivenChannelAdapter linkInboundAdapter(@Qualifier("mqttClientManager") LinkClientManager manager,
            MqttSettings settings, ClusterSettings cluster,
            java.util.Optional<DynsecBrokerAccess> dynsec) {
        List<String> topics = cluster.enabled() ? new ArrayList<>() : subscriptions(settings.sharedGroup(),
                Topics.INBOUND);
        dynsec.ifPresent(access -> topics.add(DynsecBrokerAccess.RESPONSE_TOPIC));
        MqttPahoMessageDrivenChannelAdapter adapter = inboundAdapter(manager, topics);
        adapter.setManualAcks(true); // hands the handler the acknowledgement (see mqttClientManager)
        manager.deliverUnmatchedTo(adapter);
        return adapter;
    }

    /**
     * Device answers. On a node of a cluster they are a shared subscription (group
     * {@code ringzero.mqtt.shared-group}, else {@code ringzero}): the broker gives each answer to
     * one node, and any node settles it, since an answer's run, gate and invocation are in the
     * database (a direct command's caller on another node reads it there).
     */
    @Bean
    MqttPahoMessageDrivenChannelAdapter linkAnswersAdapter(
            @Qualifier("mqttAnswersClientManager") LinkClientManager manager, MqttSettings settings,
            ClusterSettings cluster) {
        String group = cluster.enabled() && (settings.sharedGroup() == null || settings.sharedGroup().isBlank())
                ? "ringzero" : settings.sharedGroup();
        MqttPahoMessageDrivenChannelAdapter adapter = inboundAdapter(manager, subscriptions(group, Topics.ANSWERS));
        adapter.setManualAcks(true); // hands the handler the acknowledgement (see mqttAnswersClientManager)
        manager.deliverUnmatchedTo(adapter);
        return adapter;
    }

    private static List<String> subscriptions(String sharedGroup, String[] filters) {
        List<String> topics = new ArrayList<>();
        for (String topic : filters) {
            topics.add(sharedGroup == null || sharedGroup.isBlank() ? topic : "$share/" + sharedGroup + "/" + topic);
        }
        return topics;
    }

    private MqttPahoMessageDrivenChannelAdapter inboundAdapter(Mqttv3ClientManager manager, List<String> topics) {
        var adapter = new MqttPahoMessageDrivenChannelAdapter(manager, topics.toArray(String[]::new)) {
            @Override
            protected void doStart() {
                super.doStart();
                if (manager instanceof LinkClientManager link) {
                    link.adapterStarted();
                }
            }
        };
        DefaultPahoMessageConverter converter = new DefaultPahoMessageConverter();
        converter.setPayloadAsBytes(true);
        adapter.setConverter(converter);
        adapter.setQos(1);
        adapter.setOutputChannel(linkInbound());
        return adapter;
    }

    @Bean
    org.springframework.integration.dsl.IntegrationFlow linkInboundFlow(LinkGateway gateway) {
        return org.springframework.integration.dsl.IntegrationFlow.from(linkInbound())
                .handle(message -> gateway.accept((String) message.getHeaders().get(MqttHeaders.RECEIVED_TOPIC),
                        (byte[]) message.getPayload(), redelivered(message), acknowledgment(message)))
                .get();
    }

    /** Whether the broker says it may have delivered this message before (MQTT's DUP flag). */
    static boolean redelivered(org.springframework.messaging.Message<?> message) {
        return Boolean.TRUE.equals(message.getHeaders().get(MqttHeaders.DUPLICATE));
    }

    /** The message's manual acknowledgement, or nothing to do where the adapter acknowledges itself. */
    private static Runnable acknowledgment(org.springframework.messaging.Message<?> message) {
        org.springframework.integration.acks.SimpleAcknowledgment ack =
                org.springframework.integration.StaticMessageHeaderAccessor.getAcknowledgment(message);
        return ack == null ? () -> { } : ack::acknowledge;
    }

    @Bean
    MqttPahoMessageHandler linkOutbound(@Qualifier("mqttOutboundClientManager") Mqttv3ClientManager manager) {
        MqttPahoMessageHandler handler = new MqttPahoMessageHandler(manager);
        handler.setAsync(false);
        handler.setDefaultQos(1);
        handler.setCompletionTimeout(PUBLISH_TIMEOUT_MS);
        return handler;
    }

    @Bean
    LinkPublisher linkPublisher(MqttPahoMessageHandler linkOutbound,
            @Qualifier("mqttOutboundClientManager") Mqttv3ClientManager manager) {
        return new LinkPublisher(linkOutbound, new InvokeOutlet(manager, PUBLISH_TIMEOUT_MS));
    }

    /**
     * Workers for the events of the inbound connection, which must not wait on its single thread:
     * admitting and routing them (process starts). They drain the admission lanes, each gadget
     * always on the same lane (see {@link dev.ringzero.router.EventAdmission#admitSoon}), so at
     * most one task per lane waits here; events beyond the workers wait, unacknowledged, in their
     * lanes and in the broker.
     */
    @Bean(destroyMethod = "shutdown")
    java.util.concurrent.ExecutorService linkWorkers(
            @org.springframework.beans.factory.annotation.Value("${ringzero.link.workers:3}") int workers) {
        return lane("link-worker-", workers);
    }

    /**
     * A lane of its own for device answers, wider than routing's: an answer that waits past its
     * command's deadline turns a completed command into an unknown one and costs a timer's work
     * on top, while an event that waits too long for routing is shed visibly. On 2 cores the
     * benchmark found answers starved with 2 threads against routing's 6 (each answered at its
     * deadline, every run failed); answers first keeps runs finishing under overload.
     */
    @Bean(destroyMethod = "shutdown")
    java.util.concurrent.ExecutorService linkResultWorkers(
            @org.springframework.beans.factory.annotation.Value("${ringzero.link.result-workers:4}") int workers) {
        return lane("link-result-", workers);
    }

    private static java.util.concurrent.ExecutorService lane(String name, int workers) {
        var counter = new java.util.concurrent.atomic.AtomicInteger();
        return new java.util.concurrent.ThreadPoolExecutor(workers, workers, 60, java.util.concurrent.TimeUnit.SECONDS,
                new java.util.concurrent.ArrayBlockingQueue<>(10_000),
                runnable -> {
                    Thread thread = new Thread(runnable, name + counter.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                }, new java.util.concurrent.ThreadPoolExecutor.CallerRunsPolicy());
    }

    @Bean
    LinkRejections linkRejections(MeterRegistry meters, Clock clock) {
        return new LinkRejections(meters, clock);
    }

    @Bean
    HealthIndicator mqtt(@Qualifier("mqttClientManager") Mqttv3ClientManager inbound,
            @Qualifier("mqttOutboundClientManager") Mqttv3ClientManager outbound,
            @Qualifier("mqttAnswersClientManager") Mqttv3ClientManager answers, MqttSettings settings,
            java.util.Optional<PartitionLinks> partitions) {
        // a node of a cluster also names the partitions it takes and whether each session is connected
        return () -> {
            java.util.Map<Integer, Boolean> sessions = partitions.map(PartitionLinks::sessions)
                    .orElse(new java.util.TreeMap<>());
            boolean up = inbound.isConnected() && outbound.isConnected() && answers.isConnected()
                    && !sessions.containsValue(false);
            Health.Builder health = (up ? Health.up() : Health.down())
                    .withDetail("broker", settings.url())
                    .withDetail("embedded", settings.embedded());
            partitions.ifPresent(links -> health.withDetail("partitions", sessions));
            return health.build();
        };
    }
}
