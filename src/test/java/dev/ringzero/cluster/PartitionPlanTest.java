package dev.ringzero.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class PartitionPlanTest {

    private static final Instant NOW = Instant.parse("2026-12-05T20:00:00Z");

    private static PartitionPlan.Lease heldBy(String node) {
        return new PartitionPlan.Lease(Optional.of(node), NOW.plusSeconds(5));
    }

    @Test
    void aNodeAloneTakesEveryPartition() {
        PartitionPlan underTest = PartitionPlan.of("a", 6, 1, Map.of(), NOW);

        assertThat(underTest.take()).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
        assertThat(underTest.renew()).isEmpty();
        assertThat(underTest.giveUp()).isEmpty();
    }

    @Test
    void aNodeHoldingMoreThanItsShareGivesTheSurplusUpAndTakesNothing() {
        Map<Integer, PartitionPlan.Lease> leases = new HashMap<>();
        for (int partition = 0; partition < 6; partition++) {
            leases.put(partition, heldBy("a"));
        }

        PartitionPlan underTest = PartitionPlan.of("a", 6, 2, leases, NOW);

        assertThat(underTest.renew()).containsExactly(0, 1, 2);
        assertThat(underTest.giveUp()).containsExactly(5, 4, 3);
        assertThat(underTest.take()).isEmpty();
    }

    @Test
    void aJoiningNodeTakesOnlyFreePartitionsUpToItsShare() {
        Map<Integer, PartitionPlan.Lease> leases = new HashMap<>();
        for (int partition = 0; partition < 4; partition++) {
            leases.put(partition, heldBy("a"));
        }

        PartitionPlan underTest = PartitionPlan.of("b", 6, 2, leases, NOW);

        assertThat(underTest.take()).containsExactlyInAnyOrder(4, 5);
    }

    @Test
    void aLapsedLeaseIsFreeAndALiveOneOfAnotherNodeIsNot() {
        Map<Integer, PartitionPlan.Lease> leases = new HashMap<>();
        leases.put(0, new PartitionPlan.Lease(Optional.of("dead"), NOW));
        leases.put(1, heldBy("c"));

        PartitionPlan underTest = PartitionPlan.of("b", 2, 2, leases, NOW);

        assertThat(underTest.take()).as("a lease that ends now has lapsed").containsExactly(0);
    }

    @Test
    void theShareIsRoundedUpSoEveryPartitionFindsAHolder() {
        assertThat(PartitionPlan.fairShare(6, 4)).isEqualTo(2);
        assertThat(PartitionPlan.fairShare(6, 0)).isEqualTo(6);
        assertThat(PartitionPlan.fairShare(7, 2)).isEqualTo(4);
    }

    @Test
    void aGadgetIsInTheSamePartitionWhicheverNodeAsks() {
        assertThat(Partitions.of("desk-1", 6)).isEqualTo(Math.floorMod("desk-1".hashCode(), 6));
        assertThat(Partitions.of("desk-1", 6)).isBetween(0, 5);
    }
}
