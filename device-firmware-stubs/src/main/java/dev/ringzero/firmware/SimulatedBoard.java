package dev.ringzero.firmware;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.firmware.ReceivedInvocation.Handling;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.eclipse.paho.client.mqttv3.IMqttActionListener;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.IMqttToken;
import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttCallbackExtended;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.MqttTopic;
import org.eclipse.paho.client.mqttv3.ScheduledExecutorPingSender;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

/**
 * A simulated board speaking the MQTT link contract (docs/contracts.md section 1) the way
 * device firmware does: register on every connect, answer invocations at most once
 * per id, publish events, go quiet when unpaired. Subclasses declare capabilities,
 * commands and events, and implement the hardware.
 *
 * <p>Timers and message handling run on one {@link ScheduledExecutorService}, either
 * the board's own or one shared by a whole fleet, so a thousand boards do not need
 * a thousand extra threads. Paho still runs its own network threads per client.
 */
public abstract class SimulatedBoard implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(SimulatedBoard.class.getName());

    static final int QOS = 1;
    static final String PLATFORM = "sim";
    static final String VERSION = "1.0.0";

    private static final byte[] ONLINE = FirmwareJson.bytes(Map.of("online", true));
    private static final byte[] OFFLINE = FirmwareJson.bytes(Map.of("online", false));
    private static final long FIRST_RETRY_MS = 200;
    /** Back-off cap: a board that was cut off is back within seconds of the broker returning. */
    private static final long MAX_RETRY_MS = 5_000;
    private static final long LINK_TIMEOUT_MS = 10_000;
    private static final long ACK_TIMEOUT_MS = 3_000;
    /** Messages kept while the link is down or Paho's in-flight window is full; oldest dropped first. */
    private static final int OUTBOX_LIMIT = 64;
    private static final int DEFAULT_HISTORY = 10_000;

    protected final LinkConfig config;
    /** Runs handlers and hardware timers; never blocks for long. */
    protected final ScheduledExecutorService scheduler;
    private final boolean ownScheduler;

    private final CommandDispatcher dispatcher;
    private final List<EventDef> eventDefs = new ArrayList<>();
    private final long bootNanos = System.nanoTime();
    private volatile Clock clock = Clock.systemUTC();

    private final BoundedLog<ReceivedInvocation> invocations = new BoundedLog<>(DEFAULT_HISTORY);
    private final BoundedLog<SentEvent> sentEvents = new BoundedLog<>(DEFAULT_HISTORY);
    private final BoundedLog<ControlNotice> controlNotices = new BoundedLog<>(DEFAULT_HISTORY);
    private final Map<String, RawSubscription> rawSubscriptions = new ConcurrentHashMap<>();
    private final ArrayDeque<Outgoing> outbox = new ArrayDeque<>();
    private volatile Consumer<String> eventAcknowledged;

    private final Object lifecycle = new Object();
    private volatile MqttAsyncClient client;
    private volatile boolean stopped;
    private volatile boolean silent;
    private volatile boolean unpaired;
    private ScheduledFuture<?> retry;
    private long retryDelayMs = FIRST_RETRY_MS;
    private volatile CompletableFuture<Void> firstLinkUp = new CompletableFuture<>();

    private volatile RegisterAttempt registration;
    private volatile RegisterReply lastRegisterReply;
    private volatile Consumer<Map<String, Object>> registrationCustomizer = params -> { };
    private volatile Consumer<ReceivedInvocation> invocationListener = invocation -> { };

    private record RegisterAttempt(String id, CompletableFuture<RegisterReply> reply) {
    }

    /** {@code eventId}: the {@code link.event} this message carries, or null for any other message. */
    private record Outgoing(String topic, byte[] payload, String eventId) {
    }

    /** A board with its own single timer thread. */
    protected SimulatedBoard(LinkConfig config) {
        this(config, null);
    }

    /**
     * @param sharedScheduler a fleet's scheduler (not shut down by this board), or
     *                        null for a board-owned one
     */
    protected SimulatedBoard(LinkConfig config, ScheduledExecutorService sharedScheduler) {
        this.config = config;
        this.ownScheduler = sharedScheduler == null;
        this.scheduler = sharedScheduler != null ? sharedScheduler : Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "board-" + config.clientId());
            t.setDaemon(true);
            return t;
        });
        this.dispatcher = new CommandDispatcher(new ResultStore(ResultStore.DEFAULT_CAPACITY), clock);
    }

    // ---------------------------------------------------------------- what a board is

    /** {@code display_name} in the registration. */
    protected abstract String displayName();

    /** {@code capabilities} in the registration. */
    protected abstract Map<String, Object> capabilities();

    protected final void defineCommand(CommandDef command) {
        dispatcher.define(command);
    }

    protected final void defineEvent(String name, String description) {
        eventDefs.add(new EventDef(name, description));
    }

    /**
     * The link dropped, or the board is being closed or killed. Runs on a network
     * thread: stop actuators here and return at once (a maker's safety rule that
     * must hold when the network fails).
     */
    protected void onLinkLost(String reason) {
    }

    /** After the first successful link-up: start sensors. */
    protected void onStarted() {
    }

    /** close() or kill(): cancel hardware timers. */
    protected void onStopped() {
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * Connects, subscribes, publishes {@code status} online and registers, and returns
     * once the board can receive invocations. The registration reply may still be on
     * its way: see {@link #awaitRegistered}.
     *
     * @throws BoardLinkException when the broker refuses the connection (bad
     *                            credential, foreign client id) or cannot be reached
     */
    public void start() {
        MqttAsyncClient c;
        synchronized (lifecycle) {
            if (stopped) {
                throw new IllegalStateException("a closed board cannot start again");
            }
            if (client != null) {
                throw new IllegalStateException("already started");
            }
            try {
                c = new MqttAsyncClient(config.brokerUrl(), config.clientId(), new MemoryPersistence(),
                        new ScheduledExecutorPingSender(scheduler), null);
            } catch (MqttException | IllegalArgumentException e) {
                throw new BoardLinkException("bad broker url or client id for " + config, e);
            }
            c.setCallback(new Link());
            firstLinkUp = new CompletableFuture<>();
            client = c;
        }
        try {
            c.connect(connectOptions()).waitForCompletion(LINK_TIMEOUT_MS);
            firstLinkUp.get(LINK_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (MqttException | ExecutionException | TimeoutException e) {
            abandon(c);
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new BoardLinkException("link refused or unreachable for " + config + ": " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon(c);
            throw new BoardLinkException("interrupted while connecting " + config, e);
        }
        onStarted();
    }

    /** A failed start leaves the board as if never started, so the test can close it or try again. */
    private void abandon(MqttAsyncClient c) {
        synchronized (lifecycle) {
            client = null;
        }
        try {
            if (c.isConnected()) {
                c.disconnectForcibly(0, 0, false);
            }
            c.close(true);
        } catch (MqttException e) {
            LOG.log(Level.DEBUG, "closing a refused client", e);
        }
    }

    private MqttConnectOptions connectOptions() {
        MqttConnectOptions o = new MqttConnectOptions();
        o.setUserName(config.gadgetId());
        o.setPassword(config.password().toCharArray());
        o.setCleanSession(true);
        // our own back-off instead of Paho's: kill(), close() and link.unpaired must stop it for certain
        o.setAutomaticReconnect(false);
        o.setSocketFactory(NoDelaySocketFactory.forUrl(config.brokerUrl()));
        o.setWill(config.topic("status"), OFFLINE, QOS, true);
        // 3.1.1 only: Paho's default falls back to 3.1 and would hide the broker's first refusal
        o.setMqttVersion(MqttConnectOptions.MQTT_VERSION_3_1_1);
        o.setKeepAliveInterval(30);
        o.setConnectionTimeout((int) (LINK_TIMEOUT_MS / 1000));
        o.setMaxInflight(100);
        return o;
    }

    /** Graceful: publishes status offline, disconnects (no Last Will), stops reconnecting. */
    @Override
    public void close() {
        MqttAsyncClient c = stop("closed");
        if (c != null) {
            try {
                if (c.isConnected()) {
                    c.publish(config.topic("status"), OFFLINE, QOS, true).waitForCompletion(ACK_TIMEOUT_MS);
                    c.disconnect(500).waitForCompletion(ACK_TIMEOUT_MS);
                }
            } catch (MqttException e) {
                LOG.log(Level.DEBUG, "graceful disconnect of " + config.clientId() + " failed; dropping the link", e);
                try {
                    c.disconnectForcibly(0, 0, false);
                } catch (MqttException ignored) {
                    // already gone
                }
            }
            closeClient(c);
        }
        shutdownScheduler();
    }

    /**
     * Abrupt, like pulling the power: the socket closes without a DISCONNECT packet, so
     * the broker publishes the Last Will ({@code status {"online":false}}). No reconnect.
     */
    public void kill() {
        MqttAsyncClient c = stop("killed");
        if (c != null) {
            try {
                c.disconnectForcibly(0, 0, false);
            } catch (MqttException e) {
                LOG.log(Level.DEBUG, "forcible disconnect of " + config.clientId(), e);
            }
            closeClient(c);
        }
        shutdownScheduler();
    }

    private MqttAsyncClient stop(String reason) {
        MqttAsyncClient c;
        synchronized (lifecycle) {
            if (stopped) {
                return null;
            }
            stopped = true;
            if (retry != null) {
                retry.cancel(false);
                retry = null;
            }
            c = client;
        }
        try {
            onLinkLost(reason);
            onStopped();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "board " + config.clientId() + " failed to stop its hardware", e);
        }
        LOG.log(Level.DEBUG, "board {0} {1}", config.clientId(), reason);
        return c;
    }

    private static void closeClient(MqttAsyncClient c) {
        try {
            c.close(true);
        } catch (MqttException e) {
            LOG.log(Level.DEBUG, "closing client", e);
        }
    }

    private void shutdownScheduler() {
        if (ownScheduler) {
            scheduler.shutdownNow();
        }
    }

    /** True once {@link #start()} created the link (connected or not since). */
    protected final boolean isStarted() {
        return client != null;
    }

    public boolean isConnected() {
        MqttAsyncClient c = client;
        return c != null && c.isConnected();
    }

    /** True once the platform said {@code link.unpaired}; the board then closes and stays closed. */
    public boolean unpaired() {
        return unpaired;
    }

    public LinkConfig config() {
        return config;
    }

    public String gadgetId() {
        return config.gadgetId();
    }

    // ---------------------------------------------------------------- link up / reconnect

    /** Paho callbacks run on Paho's threads: hand real work to the scheduler, never block here. */
    private final class Link implements MqttCallbackExtended {

        @Override
        public void connectComplete(boolean reconnect, String serverUri) {
            // on every connect, the first and each reconnect: subscribe, status, register again
            submit(SimulatedBoard.this::linkUp);
        }

        @Override
        public void connectionLost(Throwable cause) {
            LOG.log(Level.INFO, "board {0} lost its link: {1}", config.clientId(),
                    cause == null ? "?" : cause.getMessage());
            try {
                onLinkLost("link_lost");
            } finally {
                scheduleReconnect();
            }
        }

        @Override
        public void messageArrived(String topic, MqttMessage message) {
            byte[] payload = message.getPayload();
            String own = LinkConfig.topicOf(config.gadgetId(), "");
            if (topic.startsWith(own)) {
                switch (topic.substring(own.length())) {
                    case "invoke" -> submit(() -> onInvoke(payload));
                    case "register/reply" -> onRegisterReply(payload);
                    case "control" -> onControl(payload);
                    default -> { }
                }
            }
            if (!rawSubscriptions.isEmpty()) {
                RawMessage raw = new RawMessage(topic, payload, message.isRetained(), clock.instant());
                rawSubscriptions.values().stream()
                        .filter(s -> MqttTopic.isMatched(s.topicFilter(), topic))
                        .forEach(s -> s.add(raw));
            }
        }

        @Override
        public void deliveryComplete(IMqttDeliveryToken token) {
            // a slot in Paho's in-flight window is free again
            if (hasQueued()) {
                submit(SimulatedBoard.this::flushOutbox);
            }
        }
    }

    private void submit(Runnable task) {
        try {
            scheduler.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "board " + config.clientId() + " task failed", e);
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.log(Level.DEBUG, "board {0} is shut down; dropped a task", config.clientId());
        }
    }

    private void linkUp() {
        MqttAsyncClient c = client;
        if (c == null || stopped) {
            return;
        }
        try {
            // subscribe before registering, or the register reply could arrive before the subscription
            String[] topics = {config.topic("register/reply"), config.topic("invoke"), config.topic("control")};
            c.subscribe(topics, new int[] {QOS, QOS, QOS}).waitForCompletion(LINK_TIMEOUT_MS);
            c.publish(config.topic("status"), ONLINE, QOS, true);
            register();
            resubscribeRaw(c);
            synchronized (lifecycle) {
                retryDelayMs = FIRST_RETRY_MS;
            }
            flushOutbox();
            LOG.log(Level.DEBUG, "board {0} linked up", config.clientId());
            firstLinkUp.complete(null);
        } catch (MqttException e) {
            // the link went down again meanwhile; connectionLost schedules the next attempt
            LOG.log(Level.INFO, "board {0} could not finish link-up: {1}", config.clientId(), e.getMessage());
            firstLinkUp.completeExceptionally(e);
        }
    }

    private void scheduleReconnect() {
        synchronized (lifecycle) {
            if (stopped || unpaired || (retry != null && !retry.isDone())) {
                return;
            }
            long delay = retryDelayMs;
            retryDelayMs = Math.min(retryDelayMs * 2, MAX_RETRY_MS);
            // jitter, so a fleet cut off at once does not reconnect in one burst
            long jittered = delay * (80 + ThreadLocalRandom.current().nextInt(41)) / 100;
            try {
                retry = scheduler.schedule(this::reconnectOnce, jittered, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                LOG.log(Level.DEBUG, "scheduler gone; {0} stays offline", config.clientId());
            }
        }
    }

    private void reconnectOnce() {
        MqttAsyncClient c;
        synchronized (lifecycle) {
            retry = null;
            c = client;
            if (stopped || unpaired || c == null || c.isConnected()) {
                return;
            }
        }
        try {
            c.connect(connectOptions(), null, new IMqttActionListener() {
                @Override
                public void onSuccess(IMqttToken token) {
                    LOG.log(Level.INFO, "board {0} reconnected", config.clientId());
                }

                @Override
                public void onFailure(IMqttToken token, Throwable failure) {
                    LOG.log(Level.DEBUG, "board {0} reconnect failed: {1}", config.clientId(), failure.getMessage());
                    scheduleReconnect();
                }
            });
        } catch (MqttException e) {
            LOG.log(Level.DEBUG, "board {0} reconnect refused locally: {1}", config.clientId(), e.getMessage());
            scheduleReconnect();
        }
    }

    // ---------------------------------------------------------------- registration

    /**
     * Publishes a {@code link.register} request (done automatically on every connect).
     *
     * @return the request id the reply will carry
     */
    public String register() {
        RegisterAttempt attempt = new RegisterAttempt(UUID.randomUUID().toString(), new CompletableFuture<>());
        registration = attempt;
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("type", "req");
        envelope.put("id", attempt.id());
        envelope.put("method", "link.register");
        envelope.put("params", registrationParams());
        MqttAsyncClient c = client;
        if (c != null && c.isConnected()) {
            try {
                c.publish(config.topic("register"), FirmwareJson.bytes(envelope), QOS, false);
            } catch (MqttException e) {
                // not worth queueing: every reconnect registers afresh
                LOG.log(Level.INFO, "board {0} could not publish its registration: {1}", config.clientId(), e.getMessage());
            }
        }
        return attempt.id();
    }

    /** The {@code params} of {@code link.register}, after the customizer. */
    public Map<String, Object> registrationParams() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("node_id", config.gadgetId());
        params.put("display_name", displayName());
        params.put("platform", PLATFORM);
        params.put("version", VERSION);
        params.put("capabilities", capabilities());
        Map<String, Object> commands = new LinkedHashMap<>();
        dispatcher.commands().forEach((name, def) -> commands.put(name, def.toRegistration()));
        params.put("commands_v2", commands);
        List<Map<String, Object>> events = new ArrayList<>();
        eventDefs.forEach(e -> events.add(e.toRegistration()));
        params.put("events", events);
        registrationCustomizer.accept(params);
        return params;
    }

    /**
     * Edits the registration before it is sent (add {@code instructions}, seventeen
     * events, a bad field...) to test the platform's registration checks. Applies to
     * the next {@link #register()} and every reconnect.
     */
    public void customizeRegistration(Consumer<Map<String, Object>> customizer) {
        this.registrationCustomizer = customizer == null ? params -> { } : customizer;
    }

    /** True when the latest registration was accepted within the timeout; false when refused or no reply came. */
    public boolean awaitRegistered(Duration timeout) {
        return awaitRegisterReply(timeout).map(RegisterReply::ok).orElse(false);
    }

    /** The reply to the latest registration, or empty when none came within the timeout. */
    public Optional<RegisterReply> awaitRegisterReply(Duration timeout) {
        RegisterAttempt attempt = registration;
        if (attempt == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(attempt.reply().get(timeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException | ExecutionException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    public Optional<RegisterReply> lastRegisterReply() {
        return Optional.ofNullable(lastRegisterReply);
    }

    private void onRegisterReply(byte[] payload) {
        JsonNode reply;
        try {
            reply = FirmwareJson.parse(payload);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "board {0} got an unreadable register reply", config.clientId());
            return;
        }
        JsonNode error = reply.path("error");
        RegisterReply r = new RegisterReply(reply.path("id").asText(null), reply.path("ok").asBoolean(false),
                FirmwareJson.toMap(reply.get("result")), error.path("code").asText(null),
                error.path("message").asText(null), clock.instant());
        lastRegisterReply = r;
        if (r.ok()) {
            LOG.log(Level.DEBUG, "board {0} registered", config.clientId());
        } else {
            LOG.log(Level.WARNING, "board {0} registration refused: {1} {2}", config.clientId(), r.errorCode(), r.errorMessage());
        }
        RegisterAttempt attempt = registration;
        if (attempt != null && attempt.id().equals(r.id())) {
            attempt.reply().complete(r);
        }
    }

    // ---------------------------------------------------------------- invocations

    private void onInvoke(byte[] payload) {
        JsonNode envelope;
        try {
            envelope = FirmwareJson.parse(payload);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "board {0} dropped an unreadable invocation", config.clientId());
            return;
        }
        String method = envelope.path("method").asText("link.invoke");
        InvokeRequest request = InvokeRequest.fromEnvelope(envelope);
        if (request == null || !"link.invoke".equals(method)) {
            // without an id there is nothing to correlate an answer with
            LOG.log(Level.WARNING, "board {0} dropped an invocation without id or with method {1}",
                    config.clientId(), method);
            return;
        }
        handle(request);
    }

    /** The invocation pipeline without MQTT in front, so unit tests can drive it directly. */
    Handling handle(InvokeRequest request) {
        Instant receivedAt = clock.instant();
        CommandDispatcher.Decision decision = silent ? null : dispatcher.decide(request);
        Handling handling = decision == null ? Handling.SILENCED : decision.handling();
        ReceivedInvocation received = new ReceivedInvocation(request.id(), request.command(),
                FirmwareJson.toMap(request.params()), receivedAt, handling);
        // logged before any answer leaves, so whoever sees the result also sees the invocation
        invocations.add(received);
        LOG.log(Level.DEBUG, "board {0} <- {1} {2}: {3}", config.clientId(), request.command(), request.id(), handling);
        try {
            invocationListener.accept(received);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "invocation listener failed", e);
        }
        if (decision != null) {
            dispatcher.carryOut(request, decision, outcome -> publishResult(request.id(), outcome));
        }
        return handling;
    }

    private void publishResult(String invocationId, CommandOutcome outcome) {
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("method", "link.result");
        envelope.put("id", invocationId);
        envelope.put("ok", outcome.ok());
        if (outcome instanceof CommandOutcome.Done done) {
            envelope.put("payload", done.payload());
        } else if (outcome instanceof CommandOutcome.Failed failed) {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("code", failed.code());
            error.put("message", failed.message());
            envelope.put("error", error);
        }
        publishOrQueue(config.topic("results"), FirmwareJson.bytes(envelope));
    }

    /** Every {@code link.invoke} received (newest {@link #setHistoryLimit limit}), with what the board did. */
    public List<ReceivedInvocation> invocations() {
        return invocations.snapshot();
    }

    /** How many invocations arrived since construction, including those the history limit dropped. */
    public long invocationCount() {
        return invocations.total();
    }

    /** True once at least n invocations were received since construction; false on timeout. */
    public boolean awaitInvocations(int n, Duration timeout) {
        return invocations.awaitTotal(n, timeout);
    }

    /** The stored result for an invocation id, if the board has one (it answers repeats with it). */
    public Optional<CommandOutcome> storedResult(String invocationId) {
        return dispatcher.store().stored(invocationId);
    }

    /** Silent: receives and logs invocations but neither executes nor answers them (platform timeout tests). */
    public void setSilent(boolean silent) {
        this.silent = silent;
    }

    public boolean isSilent() {
        return silent;
    }

    /** From now on, answer this command with {@code code} instead of running it ({@code busy}, {@code unavailable}...). */
    public void injectFault(String command, String code, String message) {
        dispatcher.injectFault(command, code, message);
    }

    public void clearFaults() {
        dispatcher.clearFaults();
    }

    /** Called for every received invocation (after it is logged, before it is answered). */
    public void onInvocation(Consumer<ReceivedInvocation> listener) {
        this.invocationListener = listener == null ? invocation -> { } : listener;
    }

    // ---------------------------------------------------------------- events

    /** Publishes a {@code link.event} with a fresh id; returns the id. */
    public String emitEvent(String event, Map<String, Object> data) {
        return emitEvent(UUID.randomUUID().toString(), event, data);
    }

    /** Publishes a {@code link.event} with the given id (to test the platform's duplicate suppression). */
    public String emitEvent(String eventId, String event, Map<String, Object> data) {
        Map<String, Object> body = data == null ? Map.of() : data;
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("id", eventId);
        params.put("event", event);
        params.put("data", body);
        if (config.clientSuffix() == null) {
            // the board's own clock; a second connection (a maker's tool) has another and says nothing
            params.put("uptime_ms", uptimeMillis());
        }
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("method", "link.event");
        envelope.put("params", params);
        sentEvents.add(new SentEvent(eventId, event, body, clock.instant()));
        LOG.log(Level.DEBUG, "board {0} -> event {1} {2}", config.clientId(), event, eventId);
        publishOrQueue(config.topic("events"), FirmwareJson.bytes(envelope), eventId);
        return eventId;
    }

    /**
     * Called with an event's id once the broker has acknowledged it (its PUBACK): from then on the
     * board has let go of it, and the platform owes it a decision. A fault test counts these.
     */
    public void onEventAcknowledged(Consumer<String> listener) {
        eventAcknowledged = listener;
    }

    private IMqttActionListener acknowledged(String eventId) {
        return new IMqttActionListener() {
            @Override
            public void onSuccess(IMqttToken token) {
                Consumer<String> listener = eventAcknowledged;
                if (listener != null) {
                    listener.accept(eventId);
                }
            }

            @Override
            public void onFailure(IMqttToken token, Throwable failure) {
                // not acknowledged: the link dropped it (a clean session forgets its in-flight messages)
            }
        };
    }

    /** Events this board emitted (newest {@link #setHistoryLimit limit}). */
    public List<SentEvent> sentEvents() {
        return sentEvents.snapshot();
    }

    // ---------------------------------------------------------------- control

    private void onControl(byte[] payload) {
        JsonNode message;
        try {
            message = FirmwareJson.parse(payload);
        } catch (IOException e) {
            controlNotices.add(new ControlNotice(null, null, Map.of(), clock.instant()));
            return;
        }
        ControlNotice notice = new ControlNotice(message.path("type").asText(null), message.path("event").asText(null),
                FirmwareJson.toMap(message), clock.instant());
        controlNotices.add(notice);
        if (notice.isUnpaired()) {
            LOG.log(Level.INFO, "board {0} was unpaired; closing for good", config.clientId());
            unpaired = true;
            // never disconnect from Paho's callback thread
            submit(this::close);
        }
    }

    public List<ControlNotice> controlNotices() {
        return controlNotices.snapshot();
    }

    // ---------------------------------------------------------------- raw access for tests

    /**
     * Publishes arbitrary bytes on one of this board's own topics
     * ({@code ringzero/v1/gadgets/{id}/{topicSuffix}}): malformed JSON, oversized
     * messages, envelopes with a foreign gadget id inside.
     *
     * @return whether the broker acknowledged it (see {@link #publishRawTo})
     */
    public boolean publishRaw(String topicSuffix, byte[] payload) {
        return publishRawTo(config.topic(topicSuffix), payload);
    }

    /**
     * Publishes arbitrary bytes on any topic through this board's connection (QoS 1),
     * for ACL tests. Returns true when the broker acknowledged the publish within 3 s;
     * false when it was refused, the link dropped (some brokers disconnect a client
     * that breaks its ACL) or no acknowledgement came. Under MQTT 3.1.1 a broker may
     * acknowledge a publish it then discards (Mosquitto does), so prove non-delivery on
     * the receiving side.
     */
    public boolean publishRawTo(String fullTopic, byte[] payload) {
        MqttAsyncClient c = client;
        if (c == null || !c.isConnected()) {
            return false;
        }
        try {
            IMqttDeliveryToken token = c.publish(fullTopic, payload, QOS, false);
            token.waitForCompletion(ACK_TIMEOUT_MS);
            return token.isComplete() && token.getException() == null;
        } catch (MqttException | IllegalArgumentException e) {
            LOG.log(Level.DEBUG, "raw publish on {0} failed: {1}", fullTopic, e.getMessage());
            return false;
        }
    }

    /**
     * Subscribes this board's connection to any topic filter and collects what
     * arrives (e.g. another device's {@code invoke} topic, to prove it stays unread).
     * Renewed on reconnect.
     */
    public RawSubscription subscribeRaw(String fullTopic) {
        RawSubscription sub = rawSubscriptions.computeIfAbsent(fullTopic, RawSubscription::new);
        MqttAsyncClient c = client;
        if (c != null && c.isConnected()) {
            try {
                subscribeRaw(c, sub);
            } catch (MqttException e) {
                LOG.log(Level.DEBUG, "raw subscribe to {0} failed: {1}", fullTopic, e.getMessage());
                sub.granted(RawSubscription.REFUSED);
            }
        }
        return sub;
    }

    private void resubscribeRaw(MqttAsyncClient c) throws MqttException {
        for (RawSubscription sub : rawSubscriptions.values()) {
            subscribeRaw(c, sub);
        }
    }

    // one SUBSCRIBE per filter: a refused foreign filter must not share a SUBACK with the board's own topics
    private static void subscribeRaw(MqttAsyncClient c, RawSubscription sub) throws MqttException {
        IMqttToken token = c.subscribe(new String[] {sub.topicFilter()}, new int[] {QOS});
        token.waitForCompletion(ACK_TIMEOUT_MS);
        int[] granted = token.getGrantedQos();
        sub.granted(granted.length > 0 ? granted[0] : RawSubscription.REFUSED);
    }

    // ---------------------------------------------------------------- publishing

    /**
     * Publishes now, or keeps the message (bounded) until the link is back or Paho's
     * in-flight window has room. Order is kept: once something waits, later messages
     * queue behind it.
     */
    private void publishOrQueue(String topic, byte[] payload) {
        publishOrQueue(topic, payload, null);
    }

    private void publishOrQueue(String topic, byte[] payload, String eventId) {
        if (stopped) {
            LOG.log(Level.DEBUG, "board {0} is stopped; dropped a message for {1}", config.clientId(), topic);
            return;
        }
        synchronized (outbox) {
            outbox.addLast(new Outgoing(topic, payload, eventId));
            if (outbox.size() > OUTBOX_LIMIT) {
                Outgoing dropped = outbox.removeFirst();
                LOG.log(Level.WARNING, "board {0} outbox full; dropped a message for {1}", config.clientId(), dropped.topic());
            }
        }
        flushOutbox();
    }

    private boolean hasQueued() {
        synchronized (outbox) {
            return !outbox.isEmpty();
        }
    }

    private void flushOutbox() {
        MqttAsyncClient c = client;
        if (c == null || !c.isConnected()) {
            return;
        }
        synchronized (outbox) {
            while (!outbox.isEmpty()) {
                Outgoing next = outbox.peekFirst();
                try {
                    if (next.eventId() == null) {
                        c.publish(next.topic(), next.payload(), QOS, false);
                    } else {
                        c.publish(next.topic(), next.payload(), QOS, false, null, acknowledged(next.eventId()));
                    }
                    outbox.removeFirst();
                } catch (MqttException e) {
                    // not connected or in-flight window full: try again on deliveryComplete or link-up
                    LOG.log(Level.DEBUG, "board {0} holds {1} message(s): {2}", config.clientId(), outbox.size(), e.getMessage());
                    return;
                }
            }
        }
    }

    // ---------------------------------------------------------------- clock and limits

    /** Time source for timestamps, deadlines and sensor samples; tests move it forward. */
    public void setClock(Clock clock) {
        this.clock = clock;
        dispatcher.setClock(clock);
    }

    protected Clock clock() {
        return clock;
    }

    /** How many invocations, events and notices the histories keep (a fleet keeps few). */
    public void setHistoryLimit(int limit) {
        invocations.setLimit(limit);
        sentEvents.setLimit(limit);
        controlNotices.setLimit(limit);
    }

    protected long uptimeMillis() {
        return (System.nanoTime() - bootNanos) / 1_000_000;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + config.clientId() + (isConnected() ? ", online" : ", offline") + "]";
    }
}
