package dev.ringzero.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class MachineProbeTest {

    @Test
    void theProbeMeasuresARoundTripAndARateOnThisMachine() {
        JsonNode probe = MachineProbe.run();
        assertThat(probe.has("tcp_loopback_error")).isFalse();
        double p50 = probe.get("tcp_loopback_round_trip_p50_us").asDouble();
        // a loopback round trip takes microseconds, never nothing and never a second
        assertThat(p50).isGreaterThan(0.5).isLessThan(1_000_000);
        assertThat(probe.get("tcp_loopback_round_trip_p99_us").asDouble()).isGreaterThanOrEqualTo(p50);
        assertThat(probe.get("sha256_mib_per_s").asDouble()).isGreaterThan(1);
        assertThat(probe.get("cpu_model").asText()).isNotBlank();
    }
}
