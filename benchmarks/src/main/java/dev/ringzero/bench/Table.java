package dev.ringzero.bench;

import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/** The one-screen text summary of a result file. */
final class Table {

    private Table() {
    }

    static String render(JsonNode r) {
        StringBuilder b = new StringBuilder();
        JsonNode c = r.path("config");
        b.append(String.format(Locale.ROOT, "RingZero benchmark %s — %d gadgets, %d agents, %.0f events/s open loop, %d s (+%d s warm-up)%n",
                c.path("label").asText(), c.path("gadgets").asInt(), c.path("agents").asInt(),
                c.path("rate_per_s").asDouble(), c.path("seconds").asInt(), c.path("warmup_s").asInt()));
        b.append(String.format(Locale.ROOT, "machine: %d cores, %s; load before %s%n", r.at("/machine/cores").asInt(),
                r.at("/machine/java").asText(), r.at("/machine/load_average_before").asText()));
        JsonNode probe = r.at("/machine/probe");
        if (probe.has("tcp_loopback_error")) {
            b.append(String.format(Locale.ROOT, "machine probe: %s; loopback TCP round trip failed (%s); SHA-256 %.0f MiB/s%n",
                    probe.path("cpu_model").asText("?"), probe.path("tcp_loopback_error").asText(),
                    probe.path("sha256_mib_per_s").asDouble()));
        } else if (!probe.isMissingNode()) {
            b.append(String.format(Locale.ROOT, "machine probe: %s; loopback TCP round trip p50 %.1f µs, p99 %.1f µs; SHA-256 %.0f MiB/s%n",
                    probe.path("cpu_model").asText("?"), probe.path("tcp_loopback_round_trip_p50_us").asDouble(),
                    probe.path("tcp_loopback_round_trip_p99_us").asDouble(), probe.path("sha256_mib_per_s").asDouble()));
        }
        JsonNode pg = r.at("/machine/postgresql");
        if (!pg.isMissingNode()) {
            b.append(String.format(Locale.ROOT, "postgresql %s: autovacuum %s, synchronous_commit %s, fsync %s, shared_buffers %s%n",
                    pg.path("server_version").asText("?"), pg.path("autovacuum").asText("?"),
                    pg.path("synchronous_commit").asText("?"), pg.path("fsync").asText("?"),
                    pg.path("shared_buffers").asText("?")));
        }
        b.append(String.format(Locale.ROOT, "%n%-40s %8s %8s %8s %8s %8s %8s%n", "latency (ms)", "count", "p50", "p95", "p99",
                "p99.9", "max"));
        row(b, "event -> link.invoke (at the gadget)", r.path("latency_event_to_invoke"));
        row(b, "floor A: bare MQTT round trip", r.at("/floors/mqtt_round_trip"));
        row(b, "floor B: one durable PG commit", r.at("/floors/pg_commit"));
        JsonNode gate = r.path("gate_approval_to_invoke");
        if (gate.path("measured").asBoolean(false)) {
            row(b, "gate approve POST -> link.invoke", gate.path("approve_post_to_invoke"));
        } else {
            b.append(String.format(Locale.ROOT, "%-40s not measured: %s%n", "gate approve POST -> link.invoke",
                    gate.path("reason").asText()));
        }
        row(b, "generator send lag (schedule adherence)", r.path("send_lag"));
        JsonNode ratios = r.path("ratios");
        b.append(String.format(Locale.ROOT, "ratios: p50 %.1fx MQTT floor (+%.2f ms), p99 %.1fx; p50 %.1fx one PG commit%n",
                ratios.path("p50_vs_mqtt_round_trip").asDouble(), ratios.path("p50_above_mqtt_floor_ms").asDouble(),
                ratios.path("p99_vs_mqtt_round_trip").asDouble(), ratios.path("p50_vs_pg_commit").asDouble()));
        JsonNode t = r.path("throughput");
        b.append(String.format(Locale.ROOT, "%nthroughput: target %.0f/s, sent %.1f/s, completed %.1f events/s (%.1f invokes/s), "
                        + "admitted %.1f/s over the load window%n",
                t.path("target_events_per_s").asDouble(), t.path("sent_events_per_s").asDouble(),
                t.path("completed_events_per_s").asDouble(), t.path("invokes_per_s").asDouble(),
                t.path("admitted_events_per_s_over_load").asDouble()));
        JsonNode n = r.path("counts");
        b.append(String.format(Locale.ROOT, "counts: sent %d, admitted %d (platform duplicates %d, shed %d), runs started %d, "
                        + "succeeded %d %s%n",
                n.path("events_sent").asLong(), n.path("events_admitted").asLong(),
                n.path("events_duplicate_at_platform").asLong(), n.path("events_shed_at_platform").asLong(),
                n.path("runs_started").asLong(),
                n.path("runs_succeeded").asLong(), n.path("runs_by_status").toString()));
        b.append(String.format(Locale.ROOT, "        invokes expected %d, received %d, duplicates %d, redelivered %d, unexpected %d, "
                        + "LOSSES %d%n",
                n.path("invokes_expected").asLong(), n.path("invokes_received").asLong(),
                n.path("invokes_duplicate").asLong(), n.path("invokes_redelivered").asLong(),
                n.path("invokes_unexpected").asLong(), n.path("losses").asLong()));
        JsonNode res = r.path("resources");
        b.append(String.format(Locale.ROOT, "platform: CPU %.1f s during load (%.2f cores; idle %.2f; %.1f ms per event above idle), "
                        + "peak RSS %.0f MiB, RSS at end %.0f MiB, %d threads%n",
                res.path("platform_cpu_s_during_load").asDouble(), res.path("platform_cpu_cores_during_load").asDouble(),
                res.path("platform_cpu_cores_idle").asDouble(),
                res.path("platform_cpu_ms_per_admitted_event_above_idle").asDouble(), res.path("platform_peak_rss_mib").asDouble(),
                res.path("platform_rss_mib_end").asDouble(), res.path("platform_threads_end").asInt()));
        b.append(String.format(Locale.ROOT, "others: PostgreSQL CPU %.1f s (%.1f ms per event), mosquitto CPU %.1f s, harness (gadgets) CPU %.1f s; load after %s%n",
                res.path("postgres_cpu_s_during_load").asDouble(), res.path("postgres_cpu_ms_per_admitted_event").asDouble(),
                res.path("mosquitto_cpu_s_during_load").asDouble(), res.path("harness_cpu_s_during_load").asDouble(),
                res.path("load_average_after").asText()));
        JsonNode phase = res.path("measured_phase");
        if (phase.has("cores")) {
            JsonNode cores = phase.path("cores");
            JsonNode ms = phase.path("cpu_ms_per_admitted_event");
            b.append(String.format(Locale.ROOT, "measured phase (%.0f s, %d events): cores platform %.2f (JIT compilers %.2f), PostgreSQL %.2f, "
                            + "mosquitto %.2f, harness %.2f; ms per event platform %.2f (%.2f without the JIT), "
                            + "PostgreSQL %.2f, all processes %.2f%n",
                    phase.path("seconds").asDouble(), phase.path("events_admitted").asLong(), cores.path("platform").asDouble(),
                    cores.path("platform_jit_compilers").asDouble(), cores.path("postgresql").asDouble(),
                    cores.path("mosquitto").asDouble(), cores.path("harness").asDouble(), ms.path("platform").asDouble(),
                    ms.path("platform_without_jit").asDouble(), ms.path("postgresql").asDouble(),
                    ms.path("all_measured").asDouble()));
        }
        JsonNode db = r.path("database_writes_per_admitted_event");
        if (db.has("commits")) {
            b.append(String.format(Locale.ROOT, "database per admitted event: %.1f commits, %.1f rows inserted, %.1f updated, %.1f deleted%n",
                    db.path("commits").asDouble(), db.path("rows_inserted").asDouble(), db.path("rows_updated").asDouble(),
                    db.path("rows_deleted").asDouble()));
            b.append(String.format(Locale.ROOT, "  %.1f index entries written%s%n", db.path("index_entries_written").asDouble(),
                    db.has("statements") ? String.format(Locale.ROOT, ", %.1f statements", db.path("statements").asDouble()) : ""));
        }
        JsonNode windows = r.path("service_by_window");
        if (windows.has("first_30_s")) {
            JsonNode first = windows.path("first_30_s");
            JsonNode then = windows.path("from_30_to_120_s");
            b.append(String.format(Locale.ROOT, "service by window: first 30 s p50 %.1f / p99 %.1f ms; 30-120 s p50 %.1f / "
                            + "p99 %.1f ms; every second's p99 <= 50 ms from second %d on%n",
                    first.path("p50_ms").asDouble(Double.NaN), first.path("p99_ms").asDouble(Double.NaN),
                    then.path("p50_ms").asDouble(Double.NaN), then.path("p99_ms").asDouble(Double.NaN),
                    windows.path("second_from_which_p99_stays_le_50ms").asInt()));
        }
        JsonNode llm = r.path("llm_sessions");
        if (!llm.isMissingNode()) {
            JsonNode cost = llm.path("cost_sessions_only");
            b.append(String.format(Locale.ROOT, "llm sessions: %d at once against a %d ms model, %d runs (%d turns) "
                            + "during the load; alone, a turn costs the platform %.2f ms CPU (%.2f above idle), "
                            + "PostgreSQL %.2f ms, %.1f commits, %.1f rows inserted (%.1f turns/s)%n",
                    llm.path("sessions").asInt(), llm.path("model_latency_ms").asInt(),
                    llm.path("runs_during_load").asLong(), llm.path("model_turns_during_load").asLong(),
                    cost.path("platform_cpu_ms_per_turn").asDouble(),
                    cost.path("platform_cpu_ms_per_turn_above_idle").asDouble(),
                    cost.path("postgres_cpu_ms_per_turn").asDouble(), cost.path("commits_per_turn").asDouble(),
                    cost.path("rows_inserted_per_turn").asDouble(), cost.path("model_turns_per_s").asDouble()));
        }
        JsonNode slot = r.path("devices_first_slot");
        if (slot.path("taken").asLong() + slot.path("missed").asLong() > 0) {
            b.append(String.format(Locale.ROOT, "devices-first slot during the load: %d waits took it (%.1f ms on "
                            + "average), %d went on without it (%.1f ms)%n", slot.path("taken").asLong(),
                    slot.path("taken_wait_ms_avg").asDouble(), slot.path("missed").asLong(),
                    slot.path("missed_wait_ms_avg").asDouble()));
        }
        JsonNode targets = r.path("targets");
        if (targets.size() > 0) {
            b.append("targets:");
            for (Iterator<Map.Entry<String, JsonNode>> it = targets.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                b.append(' ').append(e.getKey()).append('=').append(e.getValue().asText());
            }
            b.append('\n');
        }
        return b.toString();
    }

    private static void row(StringBuilder b, String name, JsonNode h) {
        if (h == null || h.isMissingNode() || h.path("count").asLong() == 0) {
            b.append(String.format(Locale.ROOT, "%-40s %8s%n", name, "-"));
            return;
        }
        b.append(String.format(Locale.ROOT, "%-40s %8d %8.2f %8.2f %8.2f %8.2f %8.2f%n", name, h.path("count").asLong(),
                h.path("p50_ms").asDouble(), h.path("p95_ms").asDouble(), h.path("p99_ms").asDouble(),
                h.path("p999_ms").asDouble(), h.path("max_ms").asDouble()));
    }

    /** {@code Table result.json}: prints the summary of a saved result. */
    public static void main(String[] args) throws Exception {
        System.out.println(render(Rest.JSON.readTree(java.nio.file.Path.of(args[0]).toFile())));
    }
}
