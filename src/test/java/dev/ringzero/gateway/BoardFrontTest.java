package dev.ringzero.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The board front against a real broker (the machine's Mosquitto on 1883, which bin/test starts):
 * it relays a board's traffic, but a board's events and answers go to the platform and are
 * acknowledged to the board only when the platform says so.
 */
class BoardFrontTest {

    private static final String BOARD = "front-" + java.util.UUID.randomUUID().toString().substring(0, 8);

    private record Taken(String topic, String payload, boolean redelivered, Runnable acknowledge) {
    }

    private final LinkedBlockingQueue<Taken> taken = new LinkedBlockingQueue<>();
    private final List<MqttAsyncClient> clients = new CopyOnWriteArrayList<>();
    private BoardFront underTest;
    private int port;

    @BeforeEach
    void start() throws Exception {
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        underTest = new BoardFront("127.0.0.1", port, "127.0.0.1", LinkLimits.MAX_MESSAGE_BYTES + 65_536);
        underTest.start(1883);
    }

    @AfterEach
    void stop() throws Exception {
        for (MqttAsyncClient client : clients) {
            if (client.isConnected()) {
                client.disconnectForcibly(0, 100, false);
            }
            client.close(true);
        }
        underTest.stop();
    }

    private MqttAsyncClient connect(String username) throws Exception {
        MqttAsyncClient client = new MqttAsyncClient("tcp://127.0.0.1:" + port, username, new MemoryPersistence());
        MqttConnectOptions options = new MqttConnectOptions();
        options.setUserName(username);
        options.setPassword("any".toCharArray());
        options.setCleanSession(true);
        client.connect(options).waitForCompletion(5_000);
        clients.add(client);
        return client;
    }

    @Test
    void aBoardsEventIsAcknowledgedOnlyOnceThePlatformHasTakenItAndNeverReachesTheBroker() throws Exception {
        MqttAsyncClient watcher = connect(BOARD + "-watcher");
        LinkedBlockingQueue<String> atTheBroker = new LinkedBlockingQueue<>();
        watcher.subscribe(Topics.ROOT + BOARD + "/#", 1, (topic, message) -> atTheBroker.add(topic)).waitForCompletion(5_000);
        underTest.deliverTo((topic, payload, redelivered, acknowledge) ->
                taken.add(new Taken(topic, new String(payload, StandardCharsets.UTF_8), redelivered, acknowledge)));
        MqttAsyncClient board = connect(BOARD);

        IMqttDeliveryToken event = board.publish(Topics.of(BOARD, Topics.EVENTS), new MqttMessage("{\"e\":1}".getBytes(StandardCharsets.UTF_8)));
        Taken first = taken.poll(5, TimeUnit.SECONDS);

        assertThat(first).isNotNull();
        assertThat(first.topic()).isEqualTo(Topics.of(BOARD, Topics.EVENTS));
        assertThat(first.payload()).isEqualTo("{\"e\":1}");
        Thread.sleep(300);
        assertThat(event.isComplete()).as("acknowledged before the platform said so").isFalse();
        first.acknowledge().run();
        event.waitForCompletion(5_000);
        assertThat(event.isComplete()).isTrue();
        assertThat(atTheBroker.poll(300, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void everythingElseIsRelayedBothWaysAndAnotherBoardsEventsTopicIsNotTaken() throws Exception {
        underTest.deliverTo((topic, payload, redelivered, acknowledge) ->
                taken.add(new Taken(topic, new String(payload, StandardCharsets.UTF_8), redelivered, acknowledge)));
        MqttAsyncClient board = connect(BOARD);
        LinkedBlockingQueue<String> invokes = new LinkedBlockingQueue<>();
        board.subscribe(Topics.of(BOARD, Topics.INVOKE), 1, (topic, message) -> invokes.add(new String(message.getPayload(),
                StandardCharsets.UTF_8))).waitForCompletion(5_000);
        MqttAsyncClient platform = connect(BOARD + "-platform");
        LinkedBlockingQueue<String> statuses = new LinkedBlockingQueue<>();
        // this board's topic only: the shared broker holds other boards' retained statuses
        platform.subscribe(Topics.of(BOARD, Topics.STATUS), 1, (topic, message) -> statuses.add(topic)).waitForCompletion(5_000);

        platform.publish(Topics.of(BOARD, Topics.INVOKE), new MqttMessage("invoke".getBytes(StandardCharsets.UTF_8)))
                .waitForCompletion(5_000);
        board.publish(Topics.of(BOARD, Topics.STATUS), new MqttMessage("online".getBytes(StandardCharsets.UTF_8)))
                .waitForCompletion(5_000);
        // the platform's own connection publishing on a board's topic: not a board's own event, the broker's business
        platform.publish(Topics.of(BOARD, Topics.EVENTS), new MqttMessage("{}".getBytes(StandardCharsets.UTF_8)))
                .waitForCompletion(5_000);

        assertThat(invokes.poll(5, TimeUnit.SECONDS)).isEqualTo("invoke");
        assertThat(statuses.poll(5, TimeUnit.SECONDS)).isEqualTo(Topics.of(BOARD, Topics.STATUS));
        assertThat(taken).isEmpty();
    }

    @Test
    void eventsThatArriveBeforeThePlatformIsReadyWaitUnacknowledgedAndThenGoInOrder() throws Exception {
        MqttAsyncClient board = connect(BOARD);
        IMqttDeliveryToken one = board.publish(Topics.of(BOARD, Topics.EVENTS), new MqttMessage("1".getBytes(StandardCharsets.UTF_8)));
        IMqttDeliveryToken two = board.publish(Topics.of(BOARD, Topics.RESULTS), new MqttMessage("2".getBytes(StandardCharsets.UTF_8)));
        Thread.sleep(300);
        assertThat(one.isComplete() || two.isComplete()).isFalse();

        underTest.deliverTo((topic, payload, redelivered, acknowledge) -> {
            taken.add(new Taken(topic, new String(payload, StandardCharsets.UTF_8), redelivered, acknowledge));
            acknowledge.run();
        });
        one.waitForCompletion(5_000);
        two.waitForCompletion(5_000);

        assertThat(taken).extracting(Taken::payload).containsExactly("1", "2");
    }
}
