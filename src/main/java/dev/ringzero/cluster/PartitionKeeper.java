package dev.ringzero.cluster;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Holds this node's partitions in the shared database and tells the {@link PartitionOwner} what
 * it holds. Every {@code renew-every} it records that the node lives ({@code rz_cluster_node}),
 * reads the leases ({@code rz_partition_lease}, a row per partition), and follows the
 * {@link PartitionPlan}: renew, give up, take. Each change is one conditional statement of its own,
 * so two nodes never hold one partition: the database's row lock orders them, and a take
 * succeeds only on a free or lapsed lease.
 *
 * <p>A partition this node could not renew (the database away) is handed back to the broker when
 * its lease would lapse, before another node may take it; its messages wait in the partition's
 * session meanwhile. A clean stop gives every partition up at once, so the others take them at
 * their next tick instead of after the lease's time. The ticks run on a thread of their own: a
 * busy scheduler must not let a live node's leases lapse.
 */
public class PartitionKeeper implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PartitionKeeper.class);

    private final JdbcClient jdbc;
    private final ClusterSettings settings;
    private final PartitionOwner owner;
    private final Clock clock;
    private final String node;
    /** The partitions this node holds, and until when its last renewal holds them. */
    private final Map<Integer, Instant> held = new TreeMap<>();
    private ScheduledExecutorService ticks;
    private volatile boolean running;

    public PartitionKeeper(JdbcClient jdbc, ClusterSettings settings, PartitionOwner owner, Clock clock,
            @Value("${ringzero.mqtt.node-id:1}") String node) {
        this.jdbc = jdbc;
        this.settings = settings;
        this.owner = owner;
        this.clock = clock;
        this.node = node;
    }

    /** The first tick runs before the node counts as started: a node alone holds everything at once. */
    @Override
    public synchronized void start() {
        prepare();
        tick();
        ticks = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "partition-keeper");
            thread.setDaemon(true);
            return thread;
        });
        long every = settings.renewEvery().toMillis();
        ticks.scheduleWithFixedDelay(this::tickQuietly, every, every, TimeUnit.MILLISECONDS);
        running = true;
        log.info("node {} holds partitions {} of {}", node, held.keySet(), settings.partitions());
    }

    /** A row per partition, written by whichever node starts first. */
    void prepare() {
        for (int partition = 0; partition < settings.partitions(); partition++) {
            try {
                jdbc.sql("insert into rz_partition_lease(partition_no) select ? where not exists "
                        + "(select 1 from rz_partition_lease where partition_no = ?)")
                        .params(partition, partition).update();
            } catch (DuplicateKeyException raced) {
                // another node wrote it at the same moment
            }
        }
    }

    private void tickQuietly() {
        try {
            tick();
        } catch (RuntimeException e) {
            log.warn("partition keeper of node {}: {}", node, e.toString());
        }
    }

    /** One round: renew, give up, take; what could not be renewed in time is let go. */
    synchronized void tick() {
        Instant now = clock.instant();
        try {
            round(now);
        } finally {
            letGoOfLapsed(clock.instant());
        }
    }

    private void round(Instant now) {
        Timestamp until = Timestamp.from(now.plus(settings.leaseTtl()));
        if (jdbc.sql("update rz_cluster_node set seen_at = ? where node_id = ?").params(Timestamp.from(now), node)
                .update() == 0) {
            try {
                jdbc.sql("insert into rz_cluster_node(node_id, seen_at) values (?, ?)")
                        .params(node, Timestamp.from(now)).update();
            } catch (DuplicateKeyException raced) {
                // a restart of this node raced its own previous life's row: it is there now
            }
        }
        int live = jdbc.sql("select count(*) from rz_cluster_node where seen_at > ?")
                .param(Timestamp.from(now.minus(settings.leaseTtl()))).query(Integer.class).single();
        Map<Integer, PartitionPlan.Lease> leases = new HashMap<>();
        jdbc.sql("select partition_no, node_id, expires_at from rz_partition_lease where partition_no < ?")
                .param(settings.partitions())
                .query(rs -> {
                    Timestamp expires = rs.getTimestamp(3);
                    leases.put(rs.getInt(1), new PartitionPlan.Lease(Optional.ofNullable(rs.getString(2)),
                            expires == null ? Instant.MIN : expires.toInstant()));
                });
        // what the database says this node holds is what it holds (a lease this node lost while away
        // is let go of below, by its time)
        PartitionPlan plan = PartitionPlan.of(node, settings.partitions(), live, leases, now);
        for (int partition : plan.giveUp()) {
            giveUp(partition);
        }
        for (int partition : plan.renew()) {
            if (jdbc.sql("update rz_partition_lease set expires_at = ? where partition_no = ? and node_id = ?")
                    .params(until, partition, node).update() == 1) {
                hold(partition, until.toInstant());
            }
        }
        for (int partition : plan.take()) {
            if (jdbc.sql("update rz_partition_lease set node_id = ?, expires_at = ? where partition_no = ? "
                            + "and (node_id is null or expires_at is null or expires_at <= ? or node_id = ?)")
                    .params(node, until, partition, Timestamp.from(now), node).update() == 1) {
                hold(partition, until.toInstant());
            }
        }
    }

    private void hold(int partition, Instant until) {
        if (held.put(partition, until) == null) {
            log.info("node {} takes partition {}", node, partition);
            owner.take(partition);
        }
    }

    /** The link lets go first, then the lease goes: the next holder starts after this node has finished. */
    private void giveUp(int partition) {
        if (held.remove(partition) != null) {
            log.info("node {} gives partition {} up", node, partition);
            owner.giveUp(partition);
        }
        jdbc.sql("update rz_partition_lease set node_id = null, expires_at = null where partition_no = ? "
                + "and node_id = ?").params(partition, node).update();
    }

    /**
     * A partition whose lease this node could not renew is another node's to take once it lapses:
     * its link lets go a renewal before that, so two nodes never take the same gadgets' messages.
     */
    private void letGoOfLapsed(Instant now) {
        Instant soon = now.plus(settings.renewEvery());
        held.entrySet().removeIf(entry -> {
            if (soon.isBefore(entry.getValue())) {
                return false;
            }
            log.warn("node {} could not renew partition {} in time and lets it go", node, entry.getKey());
            owner.giveUp(entry.getKey());
            return true;
        });
    }

    /** The partitions this node holds now (for tests and health). */
    public synchronized java.util.Set<Integer> held() {
        return java.util.Set.copyOf(held.keySet());
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (ticks != null) {
            ticks.shutdownNow();
        }
        for (int partition : java.util.List.copyOf(held.keySet())) {
            try {
                giveUp(partition);
            } catch (DataAccessException e) {
                log.warn("partition {} not given up ({}); it lapses by its lease", partition, e.toString());
            }
        }
        try {
            jdbc.sql("delete from rz_cluster_node where node_id = ?").param(node).update();
        } catch (DataAccessException e) {
            log.info("node {} not struck off ({}); it counts as alive until its time", node, e.toString());
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** After the link's connections and adapters have started, before the web server takes requests. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 1000;
    }
}
