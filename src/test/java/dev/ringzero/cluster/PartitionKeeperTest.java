package dev.ringzero.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.ringzero.support.MovableClock;
import dev.ringzero.support.RealServices;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Partition leases of several nodes on the test PostgreSQL, in a schema of their own (the
 * platform's shared test context holds the real ones): each keeper is one node, its owner records
 * what the node was told, and time is the test's.
 */
class PartitionKeeperTest {

    private static final int PARTITIONS = 6;
    private static final ClusterSettings SETTINGS = new ClusterSettings(true, PARTITIONS, Duration.ofSeconds(6),
            Duration.ofSeconds(1));

    private final MovableClock clock = new MovableClock(Instant.parse("2026-12-05T20:00:00Z"));
    private JdbcClient jdbc;

    /** The node's side: what it was told, and whether its lease still stood when it was told to give up. */
    private final class Node implements PartitionOwner {
        final String name;
        final PartitionKeeper keeper;
        final List<String> told = new CopyOnWriteArrayList<>();
        final List<Integer> gaveUpWhileStillHeld = new CopyOnWriteArrayList<>();

        Node(String name) {
            this.name = name;
            this.keeper = new PartitionKeeper(jdbc, SETTINGS, this, clock, name);
            keeper.prepare();
        }

        @Override
        public void take(int partition) {
            told.add("take " + partition);
        }

        @Override
        public void giveUp(int partition) {
            told.add("give up " + partition);
            try {
                String holder = jdbc.sql("select node_id from rz_partition_lease where partition_no = ?")
                        .param(partition).query(String.class).optional().orElse(null);
                if (name.equals(holder)) {
                    gaveUpWhileStillHeld.add(partition);
                }
            } catch (org.springframework.dao.DataAccessException away) {
                // the test took the table away: the lease cannot be read, only let go of
            }
        }

        Set<Integer> held() {
            return keeper.held();
        }
    }

    @BeforeEach
    void schemaOfItsOwn() {
        RealServices.start();
        DriverManagerDataSource admin = new DriverManagerDataSource(RealServices.jdbcUrl(), RealServices.jdbcUser(), "");
        JdbcClient.create(admin).sql("drop schema if exists partition_keeper_test cascade").update();
        JdbcClient.create(admin).sql("create schema partition_keeper_test").update();
        jdbc = JdbcClient.create(new DriverManagerDataSource(RealServices.jdbcUrl()
                + "?currentSchema=partition_keeper_test", RealServices.jdbcUser(), ""));
        jdbc.sql("create table rz_partition_lease (partition_no int primary key, node_id varchar(64), "
                + "expires_at timestamp with time zone)").update();
        jdbc.sql("create table rz_cluster_node (node_id varchar(64) primary key, "
                + "seen_at timestamp with time zone not null)").update();
    }

    @Test
    void twoNodesSplitThePartitionsAndTheFirstLetsGoBeforeItsLeaseIsFreed() {
        Node a = new Node("a");
        a.keeper.tick();
        assertThat(a.held()).as("alone, a node holds everything").hasSize(PARTITIONS);

        Node b = new Node("b");
        b.keeper.tick();
        assertThat(b.held()).as("nothing is free yet").isEmpty();
        a.keeper.tick();
        b.keeper.tick();

        assertThat(a.held()).hasSize(3);
        assertThat(b.held()).hasSize(3).doesNotContainAnyElementsOf(a.held());
        assertThat(a.gaveUpWhileStillHeld).as("the link let go while the lease still kept others out")
                .containsExactlyInAnyOrder(3, 4, 5);
        assertThat(b.told).containsExactlyInAnyOrder("take 3", "take 4", "take 5");
    }

    @Test
    void aDeadNodesPartitionsGoToTheOthersAfterItsLeaseAndNotBefore() {
        Node a = new Node("a");
        Node b = new Node("b");
        for (int round = 0; round < 3; round++) {
            a.keeper.tick();
            b.keeper.tick();
        }
        assertThat(a.held()).hasSize(3);

        // a dies: it ticks no more
        clock.advance(Duration.ofSeconds(5));
        b.keeper.tick();
        assertThat(b.held()).as("a's leases still stand").hasSize(3);

        clock.advance(Duration.ofSeconds(2));
        b.keeper.tick();
        assertThat(b.held()).as("lapsed, and a no longer counts as alive").hasSize(PARTITIONS);
    }

    @Test
    void aNodeThatCannotRenewLetsGoARenewalBeforeItsLeaseLapses() {
        Node a = new Node("a");
        a.keeper.tick();
        jdbc.sql("alter table rz_partition_lease rename to rz_partition_lease_away").update();
        try {
            clock.advance(Duration.ofSeconds(4));
            assertThatThrownBy(a.keeper::tick).as("the database refuses the renewal");
            assertThat(a.held()).as("two seconds of lease left: kept").hasSize(PARTITIONS);

            clock.advance(Duration.ofMillis(1_500));
            assertThatThrownBy(a.keeper::tick);
            assertThat(a.held()).as("the lease lapses within a renewal: let go").isEmpty();
            assertThat(a.told).filteredOn(said -> said.startsWith("give up")).hasSize(PARTITIONS);
        } finally {
            jdbc.sql("alter table rz_partition_lease_away rename to rz_partition_lease").update();
        }
    }

    @Test
    void aCleanStopHandsEverythingOnAtTheNextTick() {
        Node a = new Node("a");
        Node b = new Node("b");
        a.keeper.tick();
        b.keeper.tick();

        a.keeper.stop();
        b.keeper.tick();

        assertThat(b.held()).as("no wait for a's leases to lapse").hasSize(PARTITIONS);
        assertThat(a.held()).isEmpty();
    }

    @Test
    void nodesTickingAtOnceNeverHoldOnePartitionTogetherAndConverge() throws Exception {
        List<Node> nodes = List.of(new Node("a"), new Node("b"), new Node("c"));
        ExecutorService threads = Executors.newFixedThreadPool(nodes.size());
        try {
            for (int round = 0; round < 12; round++) {
                CyclicBarrier together = new CyclicBarrier(nodes.size());
                List<Future<?>> ticks = new ArrayList<>();
                for (Node node : nodes) {
                    ticks.add(threads.submit(() -> {
                        together.await();
                        node.keeper.tick();
                        return null;
                    }));
                }
                for (Future<?> tick : ticks) {
                    tick.get();
                }
                Set<Integer> seen = new HashSet<>();
                for (Node node : nodes) {
                    for (int partition : node.held()) {
                        assertThat(seen.add(partition)).as("round %d: partition %d held twice", round, partition)
                                .isTrue();
                    }
                }
            }
        } finally {
            threads.shutdownNow();
        }
        for (Node node : nodes) {
            assertThat(node.held()).as(node.name + "'s fair share").hasSize(2);
        }
    }
}
