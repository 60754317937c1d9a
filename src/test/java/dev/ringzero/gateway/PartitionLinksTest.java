package dev.ringzero.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import dev.ringzero.cluster.ClusterSettings;
import dev.ringzero.cluster.Partitions;
import dev.ringzero.support.RealServices;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A partition's messages moving between two nodes on the test Mosquitto (issue 24): what one
 * node had not settled, and what was published while nobody held the partition, reaches the next
 * holder, in the order the gadget sent it; other partitions' messages reach neither.
 */
class PartitionLinksTest {

    private static final ClusterSettings TWO = new ClusterSettings(true, 2, Duration.ofSeconds(6),
            Duration.ofSeconds(1));

    /** What a node's gateway was handed: the payload, whether redelivered, and its acknowledgement. */
    private record Handed(String topic, String payload, boolean redelivered, Runnable acknowledge) {
    }

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final String sessions = "ringzero-platform-links-" + run + "-p";
    private final String ours = gadgetIn(0);
    private final String theirs = gadgetIn(1);
    private final List<Handed> handedToA = new CopyOnWriteArrayList<>();
    private final List<Handed> handedToB = new CopyOnWriteArrayList<>();
    private PartitionLinks a;
    private PartitionLinks b;
    private MqttClient board;

    private String gadgetIn(int partition) {
        return IntStream.range(0, 100).mapToObj(n -> "links-" + run + "-" + n)
                .filter(id -> Partitions.of(id, 2) == partition).findFirst().orElseThrow();
    }

    @BeforeEach
    void twoNodesAndABoard() throws Exception {
        RealServices.start();
        MqttSettings mqtt = new MqttSettings(false, "127.0.0.1", RealServices.mqttPort(), "ringzero-platform",
                RealServices.MQTT_SERVICE_PASSWORD, "links", null);
        a = new PartitionLinks(mqtt, RealServices.MQTT_SERVICE_PASSWORD, sessions, TWO, into(handedToA));
        b = new PartitionLinks(mqtt, RealServices.MQTT_SERVICE_PASSWORD, sessions, TWO, into(handedToB));
        board = new MqttClient(RealServices.mqttUrl(), "links-board-" + run, new MemoryPersistence());
        MqttConnectOptions options = new MqttConnectOptions();
        options.setUserName("ringzero-platform");
        options.setPassword(RealServices.MQTT_SERVICE_PASSWORD.toCharArray());
        board.connect(options);
    }

    /**
     * A node's gateway, as far as this test's gadgets go: the boards of other tests on the same
     * broker (their presence, their ambient events) are acknowledged and left out.
     */
    private PartitionLinks.Inbound into(List<Handed> handed) {
        return (topic, payload, redelivered, ack) -> {
            if (topic.contains("links-" + run + "-")) {
                handed.add(new Handed(topic, new String(payload, StandardCharsets.UTF_8), redelivered, ack));
            } else {
                ack.run();
            }
        };
    }

    @AfterEach
    void stop() throws Exception {
        a.stop();
        b.stop();
        board.disconnect();
        board.close();
    }

    private void publish(String gadget, int n) throws Exception {
        board.publish(Topics.of(gadget, Topics.EVENTS), ("event " + n).getBytes(StandardCharsets.UTF_8), 1, false);
    }

    private static List<String> payloads(List<Handed> handed) {
        return handed.stream().map(Handed::payload).toList();
    }

    @Test
    void aPartitionMovesWithWhatItsNodeHadNotSettledAndWhatCameMeanwhileInOrder() throws Exception {
        a.take(0);
        await().atMost(Duration.ofSeconds(5)).until(() -> a.connected(0));
        for (int n = 1; n <= 5; n++) {
            publish(ours, n);
            publish(theirs, n);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> handedToA.size() == 5);
        assertThat(payloads(handedToA)).as("partition 0's gadget only, in order")
                .containsExactly("event 1", "event 2", "event 3", "event 4", "event 5");
        handedToA.subList(0, 3).forEach(handed -> handed.acknowledge().run()); // stored

        CompletableFuture<Void> givingUp = CompletableFuture.runAsync(() -> a.giveUp(0));
        Thread.sleep(300);
        assertThat(givingUp).as("waits for events 4 and 5, still being admitted").isNotDone();
        for (int n = 6; n <= 8; n++) {
            publish(ours, n); // nobody takes partition 0 now
        }
        handedToA.subList(3, 5).forEach(handed -> handed.acknowledge().run()); // too late to reach the broker
        givingUp.get();

        b.take(0);
        await().atMost(Duration.ofSeconds(10)).until(() -> handedToB.size() >= 5);
        assertThat(payloads(handedToB)).as("nothing lost, nothing reordered")
                .containsExactly("event 4", "event 5", "event 6", "event 7", "event 8");
        assertThat(handedToB.subList(0, 2)).as("the broker says 4 and 5 may have been delivered before")
                .allMatch(Handed::redelivered);
        assertThat(handedToB).allMatch(handed -> handed.topic().equals(Topics.of(ours, Topics.EVENTS)));
        handedToB.forEach(handed -> handed.acknowledge().run());
    }

    @Test
    void twoNodesHoldingTwoPartitionsEachTakeOnlyTheirGadgetsMessages() throws Exception {
        a.take(0);
        b.take(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> a.connected(0) && b.connected(1));
        for (int n = 1; n <= 3; n++) {
            publish(ours, n);
            publish(theirs, n);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> handedToA.size() == 3 && handedToB.size() == 3);
        Thread.sleep(200);
        assertThat(handedToA).hasSize(3).allMatch(handed -> handed.topic().contains(ours));
        assertThat(handedToB).hasSize(3).allMatch(handed -> handed.topic().contains(theirs));
        handedToA.forEach(handed -> handed.acknowledge().run());
        handedToB.forEach(handed -> handed.acknowledge().run());
    }
}
