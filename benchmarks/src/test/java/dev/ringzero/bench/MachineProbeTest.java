package dev.ringzero.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class MachineProbeTest {

    @Test
    void theWarmUpTenthIsLeftOutBeforeSortingAndPercentilesAreNearestRank() {
        long[] inOrder = new long[100];
        for (int i = 0; i < 100; i++) {
            // the first ten are the slow warm-up; then 1..90 in reverse order
            inOrder[i] = i < 10 ? 1_000_000 : 100 - i;
        }
        long[] sorted = MachineProbe.percentiles(inOrder);
        assertThat(sorted).hasSize(90).startsWith(1, 2, 3).endsWith(89, 90);
        assertThat(sorted[MachineProbe.percentileIndex(sorted.length, 50)]).isEqualTo(45);
        assertThat(sorted[MachineProbe.percentileIndex(sorted.length, 99)]).isEqualTo(90);
        assertThat(MachineProbe.percentileIndex(18_000, 99)).isEqualTo(17_819);
        assertThat(MachineProbe.percentileIndex(1, 50)).isZero();
    }

    @Test
    void tooFewRoundTripsAreAnErrorNotAFigure() {
        assertThatThrownBy(() -> MachineProbe.percentiles(new long[9])).hasMessageContaining("only 9 round trips");
    }

    @Test
    void theProbeMeasuresRoundTripsAndARateOnThisMachine() {
        JsonNode probe = MachineProbe.run();
        assertThat(probe.has("tcp_loopback_error")).as(probe.toString()).isFalse();
        assertThat(probe.get("tcp_loopback_round_trips").asInt()).isBetween(10, 20_000);
        // loose sanity bounds, not a performance target: microseconds, never nothing and never a second
        assertThat(probe.get("tcp_loopback_round_trip_p50_us").asDouble()).isGreaterThan(0.5).isLessThan(1_000_000);
        assertThat(probe.get("sha256_mib_per_s").asDouble()).isGreaterThan(1);
    }
}
