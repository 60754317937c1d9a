package dev.ringzero.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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

    /** A 300/s result of the capacity shape (150 s warm-up, 60 s measured): its sends from the schedule. */
    private static ObjectNode at300(long admitted, long losses, long started, long succeeded, double completedPerS) {
        long sent = new OpenLoop.Schedule(300, 150, 60).count();
        ObjectNode r = result(300, 200, 200, 20, 80, sent, admitted, losses, 0, started, succeeded, completedPerS, 550);
        ((ObjectNode) r.get("config")).put("warmup_s", 150);
        return r;
    }

    private static String sustained(ObjectNode r) {
        return Targets.judge(r).get("sustained_300_admitted_per_s").asText();
    }

    @Test
    void threeHundredPerSecondNeedsEveryEventServedNotOnlyAdmitted() {
        long sent = new OpenLoop.Schedule(300, 150, 60).count();
        assertThat(sent).isEqualTo(42_750);
        assertThat(sustained(at300(sent, 0, sent, sent, 300))).isEqualTo("met");
        // s5-r9: every event admitted, 3,062 shed (each a loss at the gadget), 242 runs/s served
        assertThat(sustained(at300(sent, 3062, sent - 3062, sent - 3062, 242))).isEqualTo("missed");
        // a run left unfinished
        assertThat(sustained(at300(sent, 0, sent, sent - 1, 300))).isEqualTo("missed");
        // nothing lost and every run finished, but the answers came in slower than the rate
        assertThat(sustained(at300(sent, 0, sent, sent, 290))).isEqualTo("missed");
        // fewer admitted than sent: the admitted rate over the schedule is what counts
        assertThat(sustained(at300(sent - 1, 0, sent - 1, sent - 1, 300))).isEqualTo("missed");
    }

    @Test
    void everyStoredResultIsJudgedAsItWasWhenItRan() throws Exception {
        List<Path> stored;
        try (var files = Files.list(Path.of("..", "docs", "benchmarks"))) {
            stored = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(stored).hasSizeGreaterThan(50);
        for (Path file : stored) {
            JsonNode result = Rest.JSON.readTree(file.toFile());
            if (result.has("targets") && result.has("counts")) {
                assertThat(Targets.judge(result)).as(file.toString()).isEqualTo(result.get("targets"));
            }
        }
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
