package dev.ringzero.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class TargetsTest {

    /** A result as LoadBench writes it, with only what the verdicts read. */
    private static ObjectNode result(double rate, int gadgets, int agents, double p50, double p99, long sent,
            long admitted, long losses, long duplicates, long started, long succeeded, double completedPerS,
            double peakRssMiB) {
        ObjectNode r = Rest.JSON.createObjectNode();
        r.putObject("config").put("rate_per_s", rate).put("gadgets", gadgets).put("agents", agents)
                .put("seconds", 60).put("warmup_s", 30);
        r.putObject("counts").put("events_sent", sent).put("events_admitted", admitted).put("losses", losses)
                .put("invokes_duplicate", duplicates).put("runs_started", started).put("runs_succeeded", succeeded);
        r.putObject("latency_event_to_invoke").put("count", sent).put("p50_ms", p50).put("p99_ms", p99);
        r.putObject("throughput").put("completed_events_per_s", completedPerS);
        r.putObject("resources").put("platform_peak_rss_mib", peakRssMiB);
        return r;
    }

    private static ObjectNode at100(double p50, double p99, long losses, long duplicates) {
        return result(100, 200, 200, p50, p99, 7650, 7650, losses, duplicates, 7650, 7650, 100, 500);
    }

    @Test
    void at100PerSecondEachBoundIsInclusiveAndJudgedOnItsOwn() {
        JsonNode met = Targets.judge(at100(15.0, 50.0, 0, 0));
        assertThat(met.get("at_100_per_s_p50_le_15ms").asText()).isEqualTo("met");
        assertThat(met.get("at_100_per_s_p99_le_50ms").asText()).isEqualTo("met");
        assertThat(met.get("at_100_per_s_zero_loss").asText()).isEqualTo("met");

        JsonNode tail = Targets.judge(at100(4.9, 64.54, 0, 0));
        assertThat(tail.get("at_100_per_s_p50_le_15ms").asText()).isEqualTo("met");
        assertThat(tail.get("at_100_per_s_p99_le_50ms").asText()).isEqualTo("missed");

        assertThat(Targets.judge(at100(15.01, 20, 0, 0)).get("at_100_per_s_p50_le_15ms").asText()).isEqualTo("missed");
    }

    @Test
    void aLossOrADuplicateInvokeMissesZeroLoss() {
        assertThat(Targets.judge(at100(5, 20, 1, 0)).get("at_100_per_s_zero_loss").asText()).isEqualTo("missed");
        assertThat(Targets.judge(at100(5, 20, 0, 1)).get("at_100_per_s_zero_loss").asText()).isEqualTo("missed");
    }

    @Test
    void aRateTheTargetsDoNotNameIsNotJudged() {
        JsonNode verdicts = Targets.judge(result(250, 200, 200, 300, 2600, 35625, 35625, 0, 0, 35625, 35625, 247, 585));
        assertThat(verdicts.size()).isZero();
    }

    @Test
    void threeHundredPerSecondNeedsEveryEventServedNotOnlyAdmitted() {
        JsonNode served = Targets.judge(result(300, 200, 200, 20, 80, 40500, 40500, 0, 0, 40500, 40500, 300, 550));
        assertThat(served.get("sustained_300_admitted_per_s").asText()).isEqualTo("met");

        // s5-r9: every event admitted, 3,062 shed (each a loss at the gadget), 242 runs/s served
        JsonNode shed = Targets.judge(result(300, 200, 200, 459, 5005, 40500, 40500, 3062, 0, 37438, 37438, 242, 535));
        assertThat(shed.get("sustained_300_admitted_per_s").asText()).isEqualTo("missed");

        JsonNode unfinished = Targets.judge(result(300, 200, 200, 20, 80, 40500, 40500, 0, 0, 40500, 40499, 300, 550));
        assertThat(unfinished.get("sustained_300_admitted_per_s").asText()).isEqualTo("missed");

        // fewer admitted than sent: the admitted rate over the schedule is what counts
        JsonNode admittedLess = Targets.judge(result(300, 200, 200, 20, 80, 40500, 26000, 0, 0, 26000, 26000, 300, 550));
        assertThat(admittedLess.get("sustained_300_admitted_per_s").asText()).isEqualTo("missed");
    }

    @Test
    void memoryIsJudgedOnlyWithAThousandGadgetsAndAgents() {
        JsonNode big = Targets.judge(result(50, 1000, 1000, 8, 20, 3000, 3000, 0, 0, 3000, 3000, 50, 768));
        assertThat(big.get("rss_le_768_mib_with_1000_gadgets_and_agents").asText()).isEqualTo("met");
        JsonNode tooBig = Targets.judge(result(50, 1000, 1000, 8, 20, 3000, 3000, 0, 0, 3000, 3000, 50, 768.1));
        assertThat(tooBig.get("rss_le_768_mib_with_1000_gadgets_and_agents").asText()).isEqualTo("missed");
        assertThat(Targets.judge(result(50, 999, 1000, 8, 20, 3000, 3000, 0, 0, 3000, 3000, 50, 300))
                .has("rss_le_768_mib_with_1000_gadgets_and_agents")).isFalse();
    }
}
