package dev.ringzero.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Issue 8's and issue 25's targets, judged from a finished result: each verdict is "met" or "missed", and a
 * target the run's shape does not measure (another rate, fewer gadgets) is left out rather than
 * guessed.
 */
final class Targets {

    private Targets() {
    }

    static ObjectNode judge(JsonNode result) {
        ObjectNode t = Rest.JSON.createObjectNode();
        JsonNode c = result.get("config");
        JsonNode counts = result.get("counts");
        JsonNode l = result.get("latency_event_to_invoke");
        boolean zeroLoss = counts.get("losses").asLong() == 0 && counts.get("invokes_duplicate").asLong() == 0;
        double rate = c.get("rate_per_s").asDouble();
        if (rate >= 95 && rate <= 105 && l.has("p50_ms")) {
            t.put("at_100_per_s_p50_le_15ms", verdict(l.get("p50_ms").asDouble() <= 15));
            t.put("at_100_per_s_p99_le_50ms", verdict(l.get("p99_ms").asDouble() <= 50));
            t.put("at_100_per_s_zero_loss", verdict(zeroLoss));
        }
        if (rate >= 300) {
            // every sent event admitted over the send schedule (the ramped warm-up sends fewer than
            // rate × its seconds), and no loss: then the measured phase admitted at the full rate
            double admittedRate = counts.get("events_admitted").asLong() >= counts.get("events_sent").asLong()
                    ? rate : counts.get("events_admitted").asDouble() / (c.get("seconds").asDouble()
                    + c.get("warmup_s").asDouble());
            long unfinished = counts.get("runs_started").asLong() - counts.get("runs_succeeded").asLong();
            t.put("sustained_300_admitted_per_s", verdict(admittedRate >= 300 && zeroLoss && unfinished == 0
                    && result.at("/throughput/completed_events_per_s").asDouble() >= 300));
        }
        if (rate >= 400) {
            // issue 25: at least 400 runs a second served (each run's command reached its board), every one of them, with no loss
            long unfinished = counts.get("runs_started").asLong() - counts.get("runs_succeeded").asLong();
            t.put("served_400_runs_per_s_zero_loss", verdict(zeroLoss && unfinished == 0
                    && result.at("/throughput/invokes_per_s").asDouble() >= 400));
        }
        JsonNode statements = result.at("/database_writes_per_admitted_event/statements");
        if (statements.isNumber()) {
            t.put("statements_per_event_le_20", verdict(statements.asDouble() <= 20));
        }
        JsonNode res = result.get("resources");
        if (c.get("gadgets").asInt() >= 1000 && c.get("agents").asInt() >= 1000 && res.has("platform_peak_rss_mib")) {
            t.put("rss_le_768_mib_with_1000_gadgets_and_agents",
                    verdict(res.get("platform_peak_rss_mib").asDouble() <= 768));
        }
        return t;
    }

    private static String verdict(boolean met) {
        return met ? "met" : "missed";
    }
}
