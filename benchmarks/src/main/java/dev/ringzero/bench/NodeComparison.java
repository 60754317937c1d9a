package dev.ringzero.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One node against two (issue 24): two results of {@link LoadBench} under the same load, side by
 * side: event → command latency at the boards, runs a second, and the CPU each process spent per
 * event in the measured phase (each platform node, PostgreSQL, Mosquitto). {@code benchmarks/cluster.sh
 * --compare} prints it; {@code java ... NodeComparison ONE.json TWO.json} renders stored results.
 */
public final class NodeComparison {

    private NodeComparison() {
    }

    public static void main(String[] argv) throws Exception {
        if (argv.length != 2) {
            System.err.println("NodeComparison ONE-NODE.json TWO-NODES.json");
            System.exit(2);
        }
        System.out.print(render(Rest.JSON.readTree(Path.of(argv[0]).toFile()),
                Rest.JSON.readTree(Path.of(argv[1]).toFile())));
    }

    /** The table; a figure a result lacks (a node that did not report, an older result) is a dash. */
    static String render(JsonNode one, JsonNode two) {
        List<String[]> rows = new ArrayList<>();
        row(rows, "label", one, two, r -> r.at("/config/label").asText("-"));
        row(rows, "nodes", one, two, r -> r.at("/config/nodes").asText("1"));
        row(rows, "events/s (target), gadgets, agents", one, two, r -> String.format(Locale.ROOT, "%s, %s, %s",
                number(r.at("/config/rate_per_s"), 0), r.at("/config/gadgets").asText("-"),
                r.at("/config/agents").asText("-")));
        row(rows, "events sent / admitted / shed", one, two, r -> r.at("/counts/events_sent").asText("-") + " / "
                + r.at("/counts/events_admitted").asText("-") + " / " + r.at("/counts/events_shed_at_platform")
                .asText("-"));
        row(rows, "losses / duplicate commands", one, two, r -> r.at("/counts/losses").asText("-") + " / "
                + r.at("/counts/invokes_duplicate").asText("-"));
        row(rows, "event -> command p50 ms", one, two, r -> number(r.at("/latency_event_to_invoke/p50_ms"), 2));
        row(rows, "event -> command p99 ms", one, two, r -> number(r.at("/latency_event_to_invoke/p99_ms"), 2));
        row(rows, "event -> command max ms", one, two, r -> number(r.at("/latency_event_to_invoke/max_ms"), 2));
        row(rows, "runs/s (runs started / load wall)", one, two, NodeComparison::runsPerSecond);
        row(rows, "commands/s (measured phase)", one, two, r -> number(r.at("/throughput/invokes_per_s"), 1));
        String phase = "/resources/measured_phase";
        row(rows, "CPU ms/event: platform, all nodes", one, two,
                r -> number(r.at(phase + "/cpu_ms_per_admitted_event/platform"), 2));
        row(rows, "CPU ms/event: each node", one, two, r -> byNode(r.at(phase + "/cpu_ms_per_admitted_event_by_node"),
                r.at(phase + "/cpu_ms_per_admitted_event/platform")));
        row(rows, "CPU ms/event: PostgreSQL", one, two,
                r -> number(r.at(phase + "/cpu_ms_per_admitted_event/postgresql"), 2));
        row(rows, "CPU ms/event: Mosquitto", one, two,
                r -> number(r.at(phase + "/cpu_ms_per_admitted_event/mosquitto"), 2));
        row(rows, "CPU ms/event: all measured (+ harness)", one, two,
                r -> number(r.at(phase + "/cpu_ms_per_admitted_event/all_measured"), 2));
        row(rows, "cores: platform (JIT), PostgreSQL, Mosquitto, harness", one, two, r -> String.format(Locale.ROOT,
                "%s (%s), %s, %s, %s", number(r.at(phase + "/cores/platform"), 2),
                number(r.at(phase + "/cores/platform_jit_compilers"), 2), number(r.at(phase + "/cores/postgresql"), 2),
                number(r.at(phase + "/cores/mosquitto"), 2), number(r.at(phase + "/cores/harness"), 2)));
        row(rows, "platform idle cores (all nodes)", one, two,
                r -> number(r.at("/resources/platform_cpu_cores_idle"), 2));
        row(rows, "commits / statements per event", one, two, r -> number(r.at(
                "/database_writes_per_admitted_event/commits"), 2) + " / " + number(r.at(
                "/database_writes_per_admitted_event/statements"), 1));
        row(rows, "load average before -> after", one, two, r -> first(r.at("/machine/load_average_before"))
                + " -> " + first(r.at("/resources/load_average_after")));

        int width = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
        int column = Math.max(12, rows.stream().mapToInt(r -> r[1].length()).max().orElse(0));
        StringBuilder out = new StringBuilder("One node against two, the same load on this machine's cores\n");
        for (String[] r : rows) {
            out.append(String.format(Locale.ROOT, "%-" + width + "s  %-" + column + "s  %s%n", r[0], r[1], r[2]));
        }
        return out.toString();
    }

    private static void row(List<String[]> rows, String name, JsonNode one, JsonNode two,
            Function<JsonNode, String> figure) {
        rows.add(new String[] {name, figure.apply(one), figure.apply(two)});
    }

    /** Runs started over the load's wall time (warm-up, measured phase, drain), all runs of the owner. */
    static String runsPerSecond(JsonNode r) {
        JsonNode runs = r.at("/counts/runs_started");
        JsonNode wall = r.at("/throughput/load_wall_s");
        if (!runs.isNumber() || !wall.isNumber() || wall.asDouble() <= 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.1f", runs.asDouble() / wall.asDouble());
    }

    /** "node1 1.20, node2 1.31"; one node has no breakdown, its figure is the platform's. */
    private static String byNode(JsonNode byNode, JsonNode whole) {
        if (byNode.isMissingNode() || byNode.isEmpty()) {
            return whole.isNumber() ? "node1 " + number(whole, 2) : "-";
        }
        List<String> parts = new ArrayList<>();
        byNode.fields().forEachRemaining(e -> parts.add(e.getKey() + " " + number(e.getValue(), 2)));
        return String.join(", ", parts);
    }

    private static String number(JsonNode n, int decimals) {
        return n.isNumber() && !Double.isNaN(n.asDouble())
                ? String.format(Locale.ROOT, "%." + decimals + "f", n.asDouble()) : "-";
    }

    /** The 1-minute figure of a /proc/loadavg line. */
    private static String first(JsonNode loadavg) {
        String text = loadavg.asText("").trim();
        return text.isEmpty() ? "-" : text.split("\\s+")[0];
    }
}
