package dev.ringzero.gateway;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.mqtt.MqttConnAckMessage;
import io.netty.handler.codec.mqtt.MqttConnectMessage;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttDecoder;
import io.netty.handler.codec.mqtt.MqttEncoder;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded shape's door for boards: a thin MQTT relay in front of the in-process broker that
 * takes a board's events and answers itself and acknowledges them (PUBACK) only once the platform
 * has stored them. Everything else (CONNECT and its refusal, subscriptions, status, registrations,
 * the commands to the board) passes through to the broker unchanged, which still decides who may
 * connect and publish.
 *
 * <p>Why: Moquette acknowledges a QoS 1 publish as soon as it has queued it for its subscribers, in
 * memory, and keeps what it has sent to the platform's connection in memory too. When the platform
 * and the broker share one process, a crash took every event the broker had acknowledged to a
 * board but the platform had not yet committed (issue 22: the last 3–6 before each kill). Handed
 * straight to the gateway, an event is acknowledged exactly as the Mosquitto shape acknowledges it
 * to the platform: after the commit that stores it with its runs. Until then the board keeps it and
 * sends it again after a reconnect.
 *
 * <p>A board hears that it is connected (its CONNACK) only once the broker has marked the
 * connection connected ({@link #brokerConnected}). Moquette sends the CONNACK from a session thread
 * and marks the connection connected in a listener that its I/O thread may run later; a board
 * that subscribed in between (as every board does, at once) had its connection closed as "already
 * closed" when that thread was held up (seen in CI: a board's first link-up failed with "Connection
 * lost").
 */
final class BoardFront {

    private static final Logger log = LoggerFactory.getLogger(BoardFront.class);
    /** Longest a board's CONNACK waits for the broker's word that the connection is connected. */
    static final long CONNECTED_WITHIN_MS = 5_000;

    /** Where a board's event or answer goes; {@code acknowledge} sends its PUBACK. {@link LinkGateway#accept}. */
    interface Handoff {
        void accept(String topic, byte[] payload, boolean redelivered, Runnable acknowledge);
    }

    private final String host;
    private final int port;
    private final String brokerHost;
    private final int maxMessageBytes;
    private final boolean awaitsBrokersWord;
    private final CountDownLatch ready = new CountDownLatch(1);
    /** Boards whose CONNACK waits for {@link #brokerConnected}, by client id. */
    private final ConcurrentMap<String, CompletableFuture<Void>> connecting = new ConcurrentHashMap<>();
    private volatile Handoff handoff;
    private volatile int brokerPort;
    /**
     * One thread, as Paho's callback thread was: events reach the gateway in the order they
     * arrived, and no Netty I/O thread ever waits on the database. Until the platform is ready it
     * waits, and what arrives meanwhile queues behind it, unacknowledged.
     */
    private ExecutorService handoffThread;
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private Channel listener;

    /** A front for a broker that tells it nothing: every CONNACK goes to its board at once. */
    BoardFront(String host, int port, String brokerHost, int maxMessageBytes) {
        this(host, port, brokerHost, maxMessageBytes, false);
    }

    /**
     * @param awaitsBrokersWord whether the broker calls {@link #brokerConnected} for every
     *                          connection it accepts, and a board's CONNACK waits for that call
     */
    BoardFront(String host, int port, String brokerHost, int maxMessageBytes, boolean awaitsBrokersWord) {
        this.awaitsBrokersWord = awaitsBrokersWord;
        this.host = host;
        this.port = port;
        this.brokerHost = brokerHost;
        this.maxMessageBytes = maxMessageBytes;
    }

    /** Listens for boards, relaying to the broker on {@code brokerPort}. */
    void start(int brokerPort) throws InterruptedException {
        this.brokerPort = brokerPort;
        handoffThread = Executors.newSingleThreadExecutor(new DefaultThreadFactory("board-front-handoff", true));
        handoffThread.execute(this::awaitReady);
        boss = new NioEventLoopGroup(1, new DefaultThreadFactory("board-front-accept", true));
        workers = new NioEventLoopGroup(2, new DefaultThreadFactory("board-front", true));
        listener = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.AUTO_READ, false) // reads begin once the broker side is connected
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel board) {
                        board.pipeline().addLast(new MqttDecoder(maxMessageBytes), MqttEncoder.INSTANCE,
                                new FromBoard());
                    }
                }).bind(host, port).sync().channel();
    }

    /** From now on events and answers go to {@code target}; those that waited go first, in order. */
    void deliverTo(Handoff target) {
        handoff = target;
        ready.countDown();
    }

    /** Closes the door: no new board, every board's connection closed (unacknowledged messages stay with the boards). */
    void stop() {
        if (listener != null) {
            listener.close().syncUninterruptibly();
            listener = null;
        }
        if (boss != null) {
            boss.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
            workers.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
            boss = null;
        }
        if (handoffThread != null) {
            handoffThread.shutdownNow();
            handoffThread = null;
        }
    }

    /** The broker has marked {@code clientId}'s connection connected: its CONNACK may go to the board. */
    void brokerConnected(String clientId) {
        CompletableFuture<Void> waiting = connecting.remove(clientId);
        if (waiting != null) {
            waiting.complete(null);
        }
    }

    private void awaitReady() {
        try {
            ready.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The platform takes a board's own events and answers; anything else is the broker's. */
    static boolean takenByThePlatform(String username, String topic) {
        if (username == null || !DeviceRights.mayPublish(username, topic)) {
            return false;
        }
        return Topics.parse(topic).map(parsed -> parsed.suffix().equals(Topics.EVENTS)
                || parsed.suffix().equals(Topics.RESULTS)).orElse(false);
    }

    /** A board's connection: relays to its own broker connection, except what the platform takes. */
    private final class FromBoard extends ChannelInboundHandlerAdapter {

        private Channel broker;
        private volatile String username;
        private volatile boolean accepted;
        private String clientId;
        /** Completes once the broker has marked this board's connection connected. */
        private CompletableFuture<Void> connected = CompletableFuture.completedFuture(null);

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            Channel board = ctx.channel();
            new Bootstrap().group(board.eventLoop()).channel(NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            channel.pipeline().addLast(new MqttDecoder(maxMessageBytes), MqttEncoder.INSTANCE,
                                    new FromBroker(board, FromBoard.this));
                        }
                    }).connect(brokerHost, brokerPort).addListener((ChannelFutureListener) connected -> {
                        if (connected.isSuccess()) {
                            broker = connected.channel();
                            board.read();
                        } else {
                            board.close();
                        }
                    });
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Channel board = ctx.channel();
            if (!(msg instanceof MqttMessage message) || message.decoderResult().isFailure()) {
                // malformed or over the size limit: what the broker does too
                ReferenceCountUtil.release(msg);
                board.close();
                return;
            }
            if (message instanceof MqttConnectMessage connect) {
                username = connect.payload().userName();
                clientId = connect.payload().clientIdentifier();
                if (awaitsBrokersWord && clientId != null) {
                    connected = new CompletableFuture<>();
                    connecting.put(clientId, connected);
                }
            } else if (message instanceof MqttPublishMessage publish && accepted
                    && publish.fixedHeader().qosLevel() == MqttQoS.AT_LEAST_ONCE
                    && takenByThePlatform(username, publish.variableHeader().topicName())) {
                handOff(board, publish);
                return;
            }
            broker.writeAndFlush(message).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.channel().read();
        }

        private void handOff(Channel board, MqttPublishMessage publish) {
            String topic = publish.variableHeader().topicName();
            int packetId = publish.variableHeader().packetId();
            boolean redelivered = publish.fixedHeader().isDup();
            byte[] payload = ByteBufUtil.getBytes(publish.payload());
            publish.release();
            Runnable acknowledge = () -> {
                if (board.isActive()) {
                    board.writeAndFlush(MqttMessageBuilders.pubAck().packetId(packetId).build());
                }
            };
            try {
                handoffThread.execute(() -> {
                    try {
                        handoff.accept(topic, payload, redelivered, acknowledge);
                    } catch (RuntimeException e) {
                        // unacknowledged, as a broker's redelivery would have it: the board sends it again
                        log.warn("a message from {} on {} was not taken ({}); closing its connection", username,
                                topic, e.toString());
                        board.close();
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException stopping) {
                board.close();
            }
        }

        /** The broker refused the board, or its connection ended: nothing waits for the broker's word. */
        void noLongerConnecting() {
            if (clientId != null) {
                connecting.remove(clientId, connected);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            noLongerConnecting();
            if (broker != null) {
                broker.close();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            log.debug("board connection {} failed", username, cause);
            ctx.close();
        }
    }

    /**
     * The broker's side of one board's connection: relays everything to the board, an accepted
     * CONNACK (and whatever follows it) once the broker has marked the connection connected.
     */
    private static final class FromBroker extends ChannelInboundHandlerAdapter {

        private final Channel board;
        private final FromBoard boardSide;
        /** What waits behind a CONNACK held for the broker's word; null when nothing is held. */
        private ArrayDeque<Object> held;

        FromBroker(Channel board, FromBoard boardSide) {
            this.board = board;
            this.boardSide = boardSide;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (held != null) {
                held.add(msg);
                return;
            }
            if (msg instanceof MqttConnAckMessage connAck) {
                boolean accepted = connAck.variableHeader().connectReturnCode()
                        == MqttConnectReturnCode.CONNECTION_ACCEPTED;
                boardSide.accepted = accepted;
                if (!accepted) {
                    boardSide.noLongerConnecting();
                } else if (!boardSide.connected.isDone()) {
                    hold(ctx.channel(), msg);
                    return;
                }
            }
            board.writeAndFlush(msg).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        }

        /**
         * Holds the CONNACK until the broker's word (or {@link #CONNECTED_WITHIN_MS}: a broker that
         * could not complete the connection closes it, and the board learns that instead).
         */
        private void hold(Channel broker, Object connAck) {
            held = new ArrayDeque<>();
            held.add(connAck);
            broker.config().setAutoRead(false);
            boardSide.connected.completeOnTimeout(null, CONNECTED_WITHIN_MS, TimeUnit.MILLISECONDS)
                    .whenComplete((done, failure) -> board.eventLoop().execute(() -> release(broker)));
        }

        private void release(Channel broker) {
            ArrayDeque<Object> waiting = held;
            held = null;
            if (waiting == null) {
                return;
            }
            if (!board.isActive()) {
                waiting.forEach(ReferenceCountUtil::release);
                return;
            }
            waiting.forEach(message -> board.write(message).addListener(ChannelFutureListener.CLOSE_ON_FAILURE));
            board.flush();
            broker.config().setAutoRead(true);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (held != null) {
                held.forEach(ReferenceCountUtil::release);
                held = null;
            }
            board.close();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
