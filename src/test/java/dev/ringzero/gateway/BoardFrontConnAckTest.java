package dev.ringzero.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.mqtt.MqttConnectMessage;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttDecoder;
import io.netty.handler.codec.mqtt.MqttEncoder;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttSubscribeMessage;
import io.netty.util.ReferenceCountUtil;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The board front against a broker that behaves as Moquette does when its I/O thread is held up:
 * it sends the CONNACK at once but marks the connection connected only later, and closes a
 * connection whose SUBSCRIBE arrives before that. A board subscribes as soon as it has its CONNACK.
 */
class BoardFrontConnAckTest {

    /** How long the broker takes to mark a connection connected after its CONNACK. */
    private static final long MARKED_AFTER_MS = 300;

    private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
    private EventLoopGroup brokerLoop;
    private BoardFront front;
    private int frontPort;

    @BeforeEach
    void start() throws Exception {
        brokerLoop = new NioEventLoopGroup(1);
        Channel broker = new ServerBootstrap().group(brokerLoop).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(new MqttDecoder(), MqttEncoder.INSTANCE, new SlowToMarkBroker());
                    }
                }).bind("127.0.0.1", 0).sync().channel();
        try (var socket = new java.net.ServerSocket(0)) {
            frontPort = socket.getLocalPort();
        }
        front = new BoardFront("127.0.0.1", frontPort, "127.0.0.1", 65_536, true);
        front.start(((InetSocketAddress) broker.localAddress()).getPort());
    }

    @AfterEach
    void stop() {
        front.stop();
        brokerLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        later.shutdownNow();
    }

    @Test
    void aBoardHearsItIsConnectedOnlyOnceTheBrokerHasMarkedItSoItsFirstSubscribeIsKept() throws Exception {
        MqttClient board = client("desk-1");

        board.connect(options("desk-1"));
        board.subscribe("ringzero/v1/gadgets/desk-1/invoke", 1);

        assertThat(board.isConnected()).isTrue();
        board.disconnect();
        board.close();
    }

    @Test
    void aRefusedBoardIsToldAtOnce() throws Exception {
        MqttClient board = client("desk-2");

        long started = System.nanoTime();
        assertThatExceptionOfType(MqttException.class).isThrownBy(() -> board.connect(options("wrong")))
                .satisfies(e -> assertThat(e.getReasonCode())
                        .isEqualTo(MqttException.REASON_CODE_FAILED_AUTHENTICATION));
        // not held for the broker's word, which never comes for a refused connection
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(BoardFront.CONNECTED_WITHIN_MS);
        board.close();
    }

    private MqttClient client(String clientId) throws MqttException {
        return new MqttClient("tcp://127.0.0.1:" + frontPort, clientId, new MemoryPersistence());
    }

    private static MqttConnectOptions options(String username) {
        MqttConnectOptions options = new MqttConnectOptions();
        options.setUserName(username);
        options.setPassword("secret".toCharArray());
        options.setMqttVersion(MqttConnectOptions.MQTT_VERSION_3_1_1);
        options.setConnectionTimeout(10);
        return options;
    }

    /** Accepts any user but "wrong"; marks an accepted connection connected {@value #MARKED_AFTER_MS} ms late. */
    private final class SlowToMarkBroker extends ChannelInboundHandlerAdapter {

        private volatile boolean connected;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof MqttConnectMessage connect) {
                    boolean refused = "wrong".equals(connect.payload().userName());
                    ctx.writeAndFlush(MqttMessageBuilders.connAck().returnCode(refused
                            ? MqttConnectReturnCode.CONNECTION_REFUSED_BAD_USER_NAME_OR_PASSWORD
                            : MqttConnectReturnCode.CONNECTION_ACCEPTED).build());
                    if (refused) {
                        ctx.close();
                        return;
                    }
                    String clientId = connect.payload().clientIdentifier();
                    later.schedule(() -> ctx.channel().eventLoop().execute(() -> {
                        connected = true;
                        front.brokerConnected(clientId);
                    }), MARKED_AFTER_MS, TimeUnit.MILLISECONDS);
                } else if (msg instanceof MqttSubscribeMessage subscribe) {
                    if (!connected) {
                        // Moquette 0.17 MQTTConnection#processSubscribe: "SUBSCRIBE received on already closed connection"
                        ctx.close();
                        return;
                    }
                    ctx.writeAndFlush(MqttMessageBuilders.subAck().packetId(subscribe.variableHeader().messageId())
                            .addGrantedQos(MqttQoS.AT_LEAST_ONCE).build());
                } else if (msg instanceof io.netty.handler.codec.mqtt.MqttMessage message
                        && message.fixedHeader().messageType() == io.netty.handler.codec.mqtt.MqttMessageType.DISCONNECT) {
                    ctx.close();
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }
}
