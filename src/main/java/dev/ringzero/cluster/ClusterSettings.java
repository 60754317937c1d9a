package dev.ringzero.cluster;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code ringzero.cluster.*}: whether this node is one of several on one database and one broker.
 *
 * @param enabled    several nodes: gadgets' messages are taken by partition (this package), the
 *                   speaker floor and the mover leases are in the database, answers are spread
 * @param partitions how many partitions the gadgets are hashed to; the same on every node, and
 *                   a few times the number of nodes (each is an MQTT session that receives every
 *                   gadget message and keeps its own, see docs/scaling.md)
 * @param leaseTtl   how long a partition stays with a node that stopped renewing it: the longest
 *                   a dead node's gadgets wait for another node
 * @param renewEvery how often a node renews its leases and looks for free partitions
 */
@ConfigurationProperties("ringzero.cluster")
public record ClusterSettings(boolean enabled, int partitions, Duration leaseTtl, Duration renewEvery) {

    public ClusterSettings {
        partitions = partitions <= 0 ? 6 : partitions;
        leaseTtl = leaseTtl == null ? Duration.ofSeconds(6) : leaseTtl;
        renewEvery = renewEvery == null ? Duration.ofSeconds(1) : renewEvery;
        if (renewEvery.multipliedBy(3).compareTo(leaseTtl) > 0) {
            throw new IllegalArgumentException("ringzero.cluster.lease-ttl must be at least three renewals long "
                    + "(renew-every " + renewEvery + ", lease-ttl " + leaseTtl + ")");
        }
    }
}
