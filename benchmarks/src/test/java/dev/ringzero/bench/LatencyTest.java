package dev.ringzero.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class LatencyTest {

    @Test
    void percentilesAreMillisecondsOfTheRecordedNanoseconds() {
        Latency latency = new Latency();
        for (int ms = 1; ms <= 100; ms++) {
            latency.recordNanos(ms * 1_000_000L);
        }
        JsonNode n = latency.toJson();
        assertThat(n.get("count").asLong()).isEqualTo(100);
        assertThat(n.get("p50_ms").asDouble()).isCloseTo(50, within(0.1));
        assertThat(n.get("p99_ms").asDouble()).isCloseTo(99, within(0.1));
        assertThat(n.get("max_ms").asDouble()).isCloseTo(100, within(0.1));
        assertThat(n.get("mean_ms").asDouble()).isCloseTo(50.5, within(0.1));
    }

    @Test
    void anEmptyHistogramHasACountAndNoPercentiles() {
        JsonNode n = new Latency().toJson();
        assertThat(n.get("count").asLong()).isZero();
        assertThat(n.has("p50_ms")).isFalse();
    }

    @Test
    void valuesOutsideTheRangeAreClampedNotLost() {
        Latency latency = new Latency(1_000, 3);
        latency.recordNanos(0);
        latency.recordNanos(5_000_000_000L);
        JsonNode n = latency.toJson();
        assertThat(n.get("count").asLong()).isEqualTo(2);
        assertThat(n.get("max_ms").asDouble()).isCloseTo(1.0, within(0.01));
    }
}
