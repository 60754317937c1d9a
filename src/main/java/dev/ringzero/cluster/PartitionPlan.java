package dev.ringzero.cluster;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one node does with the partitions at one tick of its keeper, given the leases as recorded
 * and how many nodes are alive: keep (renew) what it holds up to its fair share, give up what it
 * holds beyond it (a node joined), and take free partitions (never held, released, or lapsed: a
 * node died) up to it. The fair share is the partition count divided by the live nodes, rounded
 * up, so every partition finds a holder while the nodes converge. Taking is only an attempt: the
 * database's conditional update decides between two nodes that try at once.
 *
 * @param renew  partitions held now and kept
 * @param giveUp partitions held now and given up (the highest first: the same choice every tick)
 * @param take   free partitions to try to take
 */
public record PartitionPlan(List<Integer> renew, List<Integer> giveUp, List<Integer> take) {

    /** A partition's lease as recorded: its holder (none if free) and until when. */
    public record Lease(Optional<String> holder, Instant expiresAt) {

        public static final Lease FREE = new Lease(Optional.empty(), Instant.MIN);

        boolean heldBy(String node, Instant now) {
            return holder.filter(node::equals).isPresent() && now.isBefore(expiresAt);
        }

        boolean freeAt(Instant now) {
            return holder.isEmpty() || !now.isBefore(expiresAt);
        }
    }

    public static PartitionPlan of(String node, int partitions, int liveNodes, Map<Integer, Lease> leases,
            Instant now) {
        int share = fairShare(partitions, liveNodes);
        List<Integer> held = new ArrayList<>();
        List<Integer> free = new ArrayList<>();
        for (int partition = 0; partition < partitions; partition++) {
            Lease lease = leases.getOrDefault(partition, Lease.FREE);
            if (lease.heldBy(node, now)) {
                held.add(partition);
            } else if (lease.freeAt(now)) {
                free.add(partition);
            }
        }
        if (held.size() > share) {
            List<Integer> surplus = new ArrayList<>(held.subList(share, held.size()));
            java.util.Collections.reverse(surplus);
            return new PartitionPlan(List.copyOf(held.subList(0, share)), List.copyOf(surplus), List.of());
        }
        // each node starts looking at a place of its own, so nodes starting together rarely race
        int start = Partitions.of(node, partitions);
        free.sort(Comparator.comparingInt(partition -> Math.floorMod(partition - start, partitions)));
        return new PartitionPlan(List.copyOf(held), List.of(),
                List.copyOf(free.subList(0, Math.min(free.size(), share - held.size()))));
    }

    /** The most partitions one node should hold while {@code liveNodes} nodes are alive. */
    static int fairShare(int partitions, int liveNodes) {
        int nodes = Math.max(1, liveNodes);
        return (partitions + nodes - 1) / nodes;
    }
}
