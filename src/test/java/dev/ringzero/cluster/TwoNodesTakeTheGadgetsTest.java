package dev.ringzero.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.firmware.DeskBot;
import dev.ringzero.support.Api;
import dev.ringzero.support.Boards;
import dev.ringzero.support.PlatformTest;
import dev.ringzero.support.SecondNode;
import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Issue 24, item 1: two nodes on the test PostgreSQL and Mosquitto share the gadgets by partition.
 * Boards send numbered events without pause while a second node joins (half the partitions move
 * to it) and leaves again (they move back): every event is stored once, in the order its board
 * sent it, and the second node admitted some of them.
 */
class TwoNodesTakeTheGadgetsTest extends PlatformTest {

    private static final int BOARDS = 8;

    @LocalServerPort
    int port;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    PartitionKeeper keeper;
    @Autowired
    ObjectMapper json;

    private final Boards boards = new Boards();

    @AfterEach
    void closeBoards() {
        boards.close();
    }

    @AfterAll
    static void stopSecondNode() {
        SecondNode.stop();
    }

    @Test
    void everyEventIsStoredOnceAndInOrderWhilePartitionsMoveToASecondNodeAndBack() throws Exception {
        Api alice = Api.at(port).newOwner("alice");
        List<DeskBot> bots = IntStream.range(0, BOARDS).mapToObj(n -> boards.deskBot(alice)).toList();
        AtomicBoolean sending = new AtomicBoolean(true);
        AtomicInteger rounds = new AtomicInteger();
        Thread load = new Thread(() -> {
            while (sending.get()) {
                int n = rounds.getAndIncrement();
                bots.forEach(bot -> bot.emitEvent("tick", Map.of("n", n)));
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "ticks");
        load.start();
        try {
            Thread.sleep(1_000);
            SecondNode.start();
            PartitionKeeper second = SecondNode.bean(PartitionKeeper.class);
            Awaitility.await().atMost(Duration.ofSeconds(20))
                    .until(() -> second.held().size() == 3 && keeper.held().size() == 3);
            assertThat(second.held()).doesNotContainAnyElementsOf(keeper.held());
            Thread.sleep(3_000);
            double admittedBySecond = SecondNode.bean(MeterRegistry.class)
                    .counter("ringzero.events", "result", "admitted").count();
            assertThat(admittedBySecond).as("the second node took its partitions' events").isPositive();

            SecondNode.stop();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> keeper.held().size() == 6);
            Thread.sleep(2_000);
        } finally {
            sending.set(false);
            load.join();
        }
        int sent = rounds.get();
        for (DeskBot bot : bots) {
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> stored(bot.gadgetId()).size() >= sent);
            Thread.sleep(500);
            assertThat(stored(bot.gadgetId())).as("%s's events, by when they were admitted", bot.gadgetId())
                    .containsExactlyElementsOf(IntStream.range(0, sent).boxed().toList());
        }
    }

    /** The numbers of a gadget's tick events as stored, in the order they arrived at a node. */
    private List<Integer> stored(String gadgetId) {
        List<Integer> numbers = new ArrayList<>();
        for (String data : jdbc.sql("select data from rz_event where gadget_id = ? and name = 'tick' "
                + "order by received_at").param(gadgetId).query(String.class).list()) {
            try {
                numbers.add(json.readTree(data).path("n").asInt());
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return numbers;
    }
}
