package dev.ringzero.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.firmware.DeskBot;
import dev.ringzero.firmware.LinkConfig;
import dev.ringzero.firmware.ReceivedInvocation;
import dev.ringzero.firmware.Rover;
import org.HdrHistogram.Histogram;

/**
 * The end-to-end benchmark of issue 8 (see docs/benchmarks.md). Against a running platform on
 * PostgreSQL + Mosquitto: creates an owner, pairs N gadgets and connects N simulated desk bots,
 * creates M "when shaken, show text" agents spread over the gadgets, measures the floors (bare MQTT
 * round trip, one durable commit), then drives {@code shaken} events open loop at R/s for a warm-up
 * and T seconds, and measures at the gadget publish(link.event) → receipt of the matching link.invoke.
 *
 * <p>Correlation: each agent's action is {@code display.show_text} with text
 * {@code "{{event.id}}|{{run.agent}}"}, so every link.invoke names the device event id and the agent
 * that answers it; one invoke is expected per (event, agent bound to the event's gadget).
 *
 * <p>Several nodes of a cluster (issue 24): {@code --http} and {@code --platform-pid} take a
 * comma-separated list, one per node. The REST calls go to the first node that answers, the
 * platform's counters are summed over the nodes, and its CPU is the nodes' together, each node's
 * also on its own ({@code resources.nodes}, {@code measured_phase.cores_by_node}).
 */
public final class LoadBench {

    private static final String SEP = "|";

    /** One event sent: when, to which gadget, which agents answered it. */
    private static final class Sent {
        final long sentNanos;
        final int gadget;
        final boolean measured;
        final Set<String> answeredBy = ConcurrentHashMap.newKeySet();

        Sent(long sentNanos, int gadget, boolean measured) {
            this.sentNanos = sentNanos;
            this.gadget = gadget;
            this.measured = measured;
        }
    }

    private final Args args;
    private final List<String> nodeUrls;
    private final Rest anonymous;
    private final ObjectNode result = Rest.JSON.createObjectNode();

    private final Map<String, Sent> sent = new ConcurrentHashMap<>();
    private final Latency latency = new Latency();
    private final AtomicLong invokesReceived = new AtomicLong();
    private final AtomicLong invokesMeasured = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong redelivered = new AtomicLong();
    private final AtomicLong unexpected = new AtomicLong();
    private final AtomicLong lastMeasuredInvoke = new AtomicLong();
    private volatile long measureStart;
    private volatile Latency[] perSecond = new Latency[0];
    private volatile long[] sentPerSecond = new long[0];

    private LoadBench(Args args) {
        this.args = args;
        this.nodeUrls = List.of(args.text("http", "http://127.0.0.1:18860").split(","));
        this.anonymous = Rest.atAny(nodeUrls);
    }

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        if (args.flag("help")) {
            System.out.println("""
                    LoadBench --http URL[,URL of node 2...] --admin-password PW --jdbc URL [--db-user U] [--db-password P]
                              [--mqtt-service-password PW (floor A; mqtt-broker/start.sh's default)]
                              [--platform-pid PID[,PID of node 2...]] [--mosquitto-pid PID] [--postgres-pid PID]
                              [--clk-tck 100]
                              [--gadgets 200] [--agents 200] [--rate 100] [--seconds 60] [--warmup 30]
                              [--drain 30] [--floor-seconds 10] [--gate-samples 20] [--label NAME] [--out FILE]
                              [--llm-sessions 0] [--model-latency-ms 2000] [--model-port 18863] [--llm-cost-seconds 30]
                              [--llm-spread-ms 0]""");
            return;
        }
        System.exit(new LoadBench(args).run());
    }

    private int run() throws Exception {
        int gadgets = args.integer("gadgets", 200);
        int agents = args.integer("agents", 200);
        double rate = args.number("rate", 100);
        int seconds = args.integer("seconds", 60);
        int warmup = args.integer("warmup", 30);
        int drain = args.integer("drain", 30);
        int floorSeconds = args.integer("floor-seconds", 10);
        String label = args.text("label", "r" + (int) rate + "-g" + gadgets + "-a" + agents);
        Path out = Path.of(args.text("out", "results/" + label + ".json"));
        // an agent may run at most 3600 times an hour (DefinitionLimits); stay below it or runs get rate_limited
        double runsPerAgent = rate * (seconds + warmup) / gadgets;
        if (runsPerAgent > 3500) {
            System.err.printf("each agent would run %.0f times within the hour (limit 3600): use more gadgets%n",
                    runsPerAgent);
            return 2;
        }

        ObjectNode config = result.putObject("config");
        config.put("label", label);
        config.put("gadgets", gadgets);
        config.put("agents", agents);
        config.put("rate_per_s", rate);
        config.put("seconds", seconds);
        config.put("warmup_s", warmup);
        config.put("drain_s", drain);
        config.put("floor_seconds", floorSeconds);
        config.put("platform_jvm_opts", args.text("platform-jvm-opts", ""));
        config.put("harness_jvm_opts", args.text("harness-jvm-opts", ""));
        config.put("history_level", args.text("history-level", ""));
        config.put("note", args.text("note", ""));
        int llmSessions = args.integer("llm-sessions", 0);
        config.put("llm_sessions", llmSessions);
        ObjectNode machine = result.putObject("machine");
        machine.put("cores", Runtime.getRuntime().availableProcessors());
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        machine.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        machine.put("load_average_before", loadAverage());
        machine.set("postgresql", postgresSettings());
        machine.set("probe", MachineProbe.run());
        result.put("started_at", Instant.now().toString());

        List<ProcStats> nodes = new ArrayList<>();
        for (String pid : args.text("platform-pid", "").split(",")) {
            if (!pid.isBlank()) {
                nodes.add(new ProcStats(Long.parseLong(pid.trim()), args.longValue("clk-tck", 100)));
            }
        }
        config.put("nodes", Math.max(1, nodes.size()));
        // the first node: its JFR recording and, with one node, its memory and threads
        ProcStats platform = nodes.isEmpty() ? null : nodes.get(0);
        ProcStats mosquitto = args.all().containsKey("mosquitto-pid")
                ? new ProcStats(args.longValue("mosquitto-pid", 0), args.longValue("clk-tck", 100)) : null;

        // ------------------------------------------------------------------ setup
        long t = System.nanoTime();
        String suffix = UUID.randomUUID().toString().substring(0, 6);
        String ownerId = "bench-" + suffix;
        Rest admin = anonymous.basic("admin", args.required("admin-password"));
        JsonNode account = admin.post("/api/v1/admin/accounts", "{\"id\":\"" + ownerId + "\",\"password\":\"bench-"
                + suffix + "-password\",\"displayName\":\"Benchmark\"}").expect(201, "creating the owner").json();
        Rest owner = anonymous.bearer(account.get("token").asText());
        log("owner %s created", ownerId);

        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<LinkConfig> links = parallel(pool, gadgets,
                i -> pair(owner, String.format("bench-%s-g%04d", suffix, i), "Bench desk " + i));
        ObjectNode setup = result.putObject("setup_s");
        setup.put("pair", secondsSince(t));
        log("%d gadgets paired in %.1f s", gadgets, secondsSince(t));

        t = System.nanoTime();
        ScheduledExecutorService boardScheduler = Executors.newScheduledThreadPool(4, r -> {
            Thread th = new Thread(r, "boards");
            th.setDaemon(true);
            return th;
        });
        List<DeskBot> boards = new ArrayList<>();
        ExecutorService starters = Executors.newFixedThreadPool(32);
        try {
            List<Future<DeskBot>> starting = new ArrayList<>();
            for (int i = 0; i < gadgets; i++) {
                int index = i;
                starting.add(starters.submit(() -> startBoard(links.get(index), index, boardScheduler)));
            }
            for (Future<DeskBot> f : starting) {
                boards.add(f.get());
            }
        } finally {
            starters.shutdown();
        }
        setup.put("connect", secondsSince(t));
        log("%d desk bots connected and registered in %.1f s", gadgets, secondsSince(t));

        t = System.nanoTime();
        int[] agentsOnGadget = new int[gadgets];
        List<String> agentIds = parallel(pool, agents, j -> {
            String gadget = links.get(j % gadgets).gadgetId();
            return owner.post("/api/v1/gadget-agents", showText(gadget, j)).expect(201, "creating agent " + j)
                    .json().get("id").asText();
        });
        for (int j = 0; j < agents; j++) {
            agentsOnGadget[j % gadgets]++;
        }
        setup.put("agents", secondsSince(t));
        log("%d agents created in %.1f s", agentIds.size(), secondsSince(t));

        // the llm scenario: sessions against a fake model of fixed latency, beside the rules load
        FakeModel fakeModel = null;
        SessionLoad sessions = null;
        if (llmSessions > 0) {
            t = System.nanoTime();
            fakeModel = FakeModel.start(args.integer("model-port", 18863),
                    Duration.ofMillis(args.integer("model-latency-ms", 2000)));
            config.put("model_latency_ms", fakeModel.latency().toMillis());
            sessions = SessionLoad.create(anonymous, admin, suffix, llmSessions,
                    Duration.ofMillis(args.integer("llm-spread-ms", 0)), fakeModel, boardScheduler);
            setup.put("llm_sessions", secondsSince(t));
            log("%d llm agents on boards of their own, against a fake model of %d ms a turn (%s)", llmSessions,
                    fakeModel.latency().toMillis(), fakeModel.baseUrl());
        }

        // ------------------------------------------------------------------ floors
        double idleCpuBefore = platform == null ? Double.NaN : cpuSeconds(nodes);
        long idleStart = System.nanoTime();
        LinkConfig floorGadget = pair(owner, "bench-" + suffix + "-floor", "Bench floor");
        ObjectNode floors = result.putObject("floors");
        log("floor A: bare MQTT round trip, %.0f/s for %d s", rate, floorSeconds);
        floors.set("mqtt_round_trip", MqttFloor.run(floorGadget.brokerUrl(), "ringzero-platform",
                args.text("mqtt-service-password", "ringzero-dev-service"), suffix, rate, floorSeconds));
        log("floor B: one durable PostgreSQL commit, %.0f/s for %d s", rate, floorSeconds);
        floors.set("pg_commit", PgFloor.run(args.required("jdbc"), args.text("db-user", "postgres"),
                args.text("db-password", ""), rate, floorSeconds));

        // the platform is idle while the floors run (their traffic never reaches it): its background cost
        double idleCores = platform == null ? Double.NaN
                : round((cpuSeconds(nodes) - idleCpuBefore) / ((System.nanoTime() - idleStart) / 1e9));

        // ------------------------------------------------------------------ gate approval → link.invoke
        // measured on the idle platform, before the load: a human approval is not a load path
        log("gate approval -> link.invoke, %d samples", args.integer("gate-samples", 20));
        result.set("gate_approval_to_invoke", gates(owner, suffix, args.integer("gate-samples", 20)));

        // ------------------------------------------------------------------ load
        String jfrFile = args.text("jfr-file", null);
        if (jfrFile != null && platform != null) {
            // profile the load only (warm-up, measured phase, drain), not start-up and setup
            jcmd(platform.pid(), "JFR.start", "name=bench", "settings=profile", "filename=" + jfrFile);
        }
        double admittedBefore = metric("ringzero_events_total", "result=\"admitted\"");
        double duplicateBefore = metric("ringzero_events_total", "result=\"duplicate\"");
        double shedBefore = metric("ringzero_events_shed_total", "");
        SlotWaits slotsBefore = slotWaits();
        long clkTck = args.longValue("clk-tck", 100);
        CpuSnapshot loadFrom = CpuSnapshot.take(nodes, mosquitto, clkTck, this);
        Map<String, Long> dbBefore = dbWrites();
        OpenLoop.Schedule schedule = new OpenLoop.Schedule(rate, warmup, seconds);
        long warmupCount = schedule.warmupCount();
        long measuredCount = Math.round(rate * seconds);
        long total = schedule.count();
        perSecond = new Latency[seconds + 1];
        sentPerSecond = new long[seconds + 1];
        for (int s = 0; s < perSecond.length; s++) {
            perSecond[s] = new Latency(120_000_000L, 2);
        }
        log("load: %.0f events/s open loop, %d s warm-up (ramp from a tenth of the rate) + %d s measured, over %d "
                + "gadgets and %d agents", rate,
                warmup, seconds, gadgets, agents);
        long expected = 0;
        long expectedMeasured = 0;
        for (long k = 0; k < total; k++) {
            expected += agentsOnGadget[(int) (k % gadgets)];
            if (k >= warmupCount) {
                expectedMeasured += agentsOnGadget[(int) (k % gadgets)];
            }
        }
        ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread th = new Thread(r, "progress");
            th.setDaemon(true);
            return th;
        });
        long expectedTotal = expected;
        long loadStartWall = System.nanoTime();
        // what each process spends in the measured phase only, once the warm-up (and most of the
        // JIT's compiling) is behind: taken when the warm-up ends and when the last event leaves
        java.util.concurrent.atomic.AtomicReference<CpuSnapshot> measuredFrom = new java.util.concurrent.atomic.AtomicReference<>();
        progress.schedule(() -> measuredFrom.set(CpuSnapshot.takeOrNull(nodes, mosquitto, clkTck, this)),
                (long) (warmup * 1000), TimeUnit.MILLISECONDS);
        progress.scheduleAtFixedRate(() -> log("  %5.1f s: %d events sent, %d of %d invokes received",
                secondsSince(loadStartWall), sent.size(), invokesReceived.get(), expectedTotal), 10, 10,
                TimeUnit.SECONDS);
        if (sessions != null) {
            sessions.start();
        }
        OpenLoop loop = new OpenLoop();
        loop.run(schedule, k -> {
            if (k == warmupCount) {
                measureStart = loop.start() + (long) (schedule.due(k) * 1e9);
            }
            int g = (int) (k % gadgets);
            String eventId = UUID.randomUUID().toString();
            boolean measured = k >= warmupCount;
            long now = System.nanoTime();
            sent.put(eventId, new Sent(now, g, measured));
            if (measured) {
                int second = (int) Math.min(seconds, (now - measureStart) / 1_000_000_000L);
                synchronized (this) {
                    sentPerSecond[second]++;
                }
            }
            // unique data too: the platform also deduplicates equal (name, data) from one gadget within 3 s
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("peak_g", 2.4);
            d.put("strength", "hard");
            d.put("seq", k);
            boards.get(g).emitEvent(eventId, "shaken", d);
        });
        long sendEnd = System.nanoTime();
        CpuSnapshot measuredTo = CpuSnapshot.takeOrNull(nodes, mosquitto, clkTck, this);
        long sessionRunsDuringLoad = 0;
        long sessionTurnsDuringLoad = 0;
        if (sessions != null) {
            sessions.stop();
            sessionRunsDuringLoad = sessions.runsStarted();
            sessionTurnsDuringLoad = sessions.turns();
            log("llm sessions stopped: %d runs, %d model turns during the load", sessionRunsDuringLoad,
                    sessionTurnsDuringLoad);
        }
        log("all %d events sent; draining (up to %d s)", total, drain);
        long drainDeadline = sendEnd + drain * 1_000_000_000L;
        while (invokesReceived.get() < expected && System.nanoTime() < drainDeadline) {
            Thread.sleep(20);
        }
        long drained = System.nanoTime();
        Map<String, Long> runs = runCounts(ownerId);
        while (active(runs) > 0 && System.nanoTime() < drainDeadline) {
            Thread.sleep(200);
            runs = runCounts(ownerId);
        }
        progress.shutdownNow();
        if (jfrFile != null && platform != null) {
            jcmd(platform.pid(), "JFR.stop", "name=bench");
            result.put("jfr_recording", jfrFile);
        }
        CpuSnapshot loadTo = CpuSnapshot.take(nodes, mosquitto, clkTck, this);
        Thread.sleep(1_500); // PostgreSQL flushes its statistics about once a second
        Map<String, Long> dbAfter = dbWrites();
        double admitted = metric("ringzero_events_total", "result=\"admitted\"") - admittedBefore;
        double duplicatesPlatform = metric("ringzero_events_total", "result=\"duplicate\"") - duplicateBefore;
        double shed = metric("ringzero_events_shed_total", "") - shedBefore;
        SlotWaits slots = slotWaits().minus(slotsBefore);
        double loadWall = (drained - loop.start()) / 1e9;

        // ------------------------------------------------------------------ report
        ObjectNode latencyJson = latency.toJson();
        latencyJson.put("what", "publish(link.event) -> link.invoke received, at the gadget, measured phase only");
        result.set("latency_event_to_invoke", latencyJson);
        result.set("send_lag", loop.lag().toJson());

        ObjectNode counts = result.putObject("counts");
        counts.put("events_sent", total);
        counts.put("events_sent_measured", measuredCount);
        counts.put("events_admitted", (long) admitted);
        counts.put("events_duplicate_at_platform", (long) duplicatesPlatform);
        // shed visibly by the platform (waited too long for routing); their invokes count as losses
        counts.put("events_shed_at_platform", (long) shed);
        long runsStarted = runs.values().stream().mapToLong(Long::longValue).sum();
        counts.put("runs_started", runsStarted);
        counts.put("runs_succeeded", runs.getOrDefault("succeeded", 0L));
        ObjectNode byStatus = counts.putObject("runs_by_status");
        runs.forEach(byStatus::put);
        counts.put("invokes_expected", expected);
        counts.put("invokes_received", invokesReceived.get());
        counts.put("invokes_duplicate", duplicates.get());
        counts.put("invokes_redelivered", redelivered.get());
        counts.put("invokes_unexpected", unexpected.get());
        counts.put("losses", expected - invokesReceived.get());
        counts.put("invokes_expected_measured", expectedMeasured);
        counts.put("invokes_received_measured", invokesMeasured.get());
        // the llm sessions' (and REST starts') waits for the platform's devices-first slot over the
        // load: missed = none free within the wait's bound, so the work ran beside the slot's
        ObjectNode slotJson = result.putObject("devices_first_slot");
        slotJson.put("what", "waits for the devices-first slot during the load (warm-up, measured phase, drain): "
                + "taken, or missed (the work went on without a slot, beside another)");
        slotJson.put("taken", (long) slots.taken());
        slotJson.put("missed", (long) slots.missed());
        slotJson.put("taken_wait_ms_avg", round(slots.takenSeconds() * 1000 / Math.max(1, slots.taken())));
        slotJson.put("missed_wait_ms_avg", round(slots.missedSeconds() * 1000 / Math.max(1, slots.missed())));

        ObjectNode throughput = result.putObject("throughput");
        double measuredSendSeconds = (sendEnd - measureStart) / 1e9;
        throughput.put("target_events_per_s", rate);
        throughput.put("sent_events_per_s", round(measuredCount / measuredSendSeconds));
        long lastInvoke = lastMeasuredInvoke.get();
        double completionSeconds = lastInvoke == 0 ? Double.NaN : (lastInvoke - measureStart) / 1e9;
        throughput.put("completed_events_per_s",
                round((double) measuredCount * invokesMeasured.get() / Math.max(1, expectedMeasured) / completionSeconds));
        throughput.put("invokes_per_s", round(invokesMeasured.get() / completionSeconds));
        throughput.put("admitted_events_per_s_over_load", round(admitted / loadWall));
        throughput.put("load_wall_s", round(loadWall));

        ObjectNode cpu = result.putObject("resources");
        if (platform != null) {
            double used = loadTo.platform() - loadFrom.platform();
            cpu.put("platform_pid", platform.pid());
            cpu.put("platform_cpu_s_during_load", round(used));
            cpu.put("platform_cpu_cores_during_load", round(used / loadWall));
            cpu.put("platform_cpu_ms_per_admitted_event", round(used * 1000 / Math.max(1, admitted)));
            cpu.put("platform_cpu_cores_idle", idleCores);
            cpu.put("platform_cpu_ms_per_admitted_event_above_idle",
                    round((used - idleCores * loadWall) * 1000 / Math.max(1, admitted)));
            cpu.put("platform_cpu_s_total", round(loadTo.platform()));
            cpu.put("platform_peak_rss_mib", platform.statusMiB("VmHWM"));
            cpu.put("platform_rss_mib_end", platform.statusMiB("VmRSS"));
            cpu.put("platform_threads_end", platform.threads());
            if (nodes.size() > 1) {
                ArrayNode byNode = cpu.putArray("nodes");
                for (int n = 0; n < nodes.size(); n++) {
                    ObjectNode node = byNode.addObject();
                    double nodeUsed = loadTo.nodes()[n] - loadFrom.nodes()[n];
                    node.put("node", n + 1);
                    node.put("pid", nodes.get(n).pid());
                    node.put("cpu_s_during_load", round(nodeUsed));
                    node.put("cpu_cores_during_load", round(nodeUsed / loadWall));
                    node.put("cpu_ms_per_admitted_event", round(nodeUsed * 1000 / Math.max(1, admitted)));
                    node.put("peak_rss_mib", nodes.get(n).statusMiB("VmHWM"));
                    node.put("threads_end", nodes.get(n).threads());
                }
            }
        }
        if (mosquitto != null) {
            cpu.put("mosquitto_cpu_s_during_load", round(loadTo.mosquitto() - loadFrom.mosquitto()));
            cpu.put("mosquitto_peak_rss_mib", mosquitto.statusMiB("VmHWM"));
            cpu.put("mosquitto_cpu_ms_per_admitted_event",
                    round((loadTo.mosquitto() - loadFrom.mosquitto()) * 1000 / Math.max(1, admitted)));
        }
        cpu.put("harness_cpu_s_during_load", round(loadTo.harness() - loadFrom.harness()));
        if (measuredFrom.get() != null && measuredTo != null) {
            cpu.set("measured_phase", measuredFrom.get().until(measuredTo));
        }
        // every PostgreSQL process on the machine: run the benchmark on a database server nothing else uses
        cpu.put("postgres_cpu_s_during_load", round(loadTo.postgres() - loadFrom.postgres()));
        cpu.put("postgres_cpu_ms_per_admitted_event",
                round((loadTo.postgres() - loadFrom.postgres()) * 1000 / Math.max(1, admitted)));
        cpu.put("load_average_after", loadAverage());

        ObjectNode db = result.putObject("database_writes_per_admitted_event");
        db.put("what", "pg_stat deltas over the load window (warm-up, measured phase, drain) divided by admitted events");
        ObjectNode tables = Rest.JSON.createObjectNode();
        ObjectNode byQuery = Rest.JSON.createObjectNode();
        dbAfter.forEach((key, after) -> {
            double perEvent = round((after - dbBefore.getOrDefault(key, 0L)) / Math.max(1, admitted));
            if (key.startsWith("table.")) {
                if (perEvent >= 0.05) {
                    tables.put(key.substring(6), perEvent);
                }
            } else if (key.startsWith("statement.")) {
                if (perEvent >= 0.05) {
                    byQuery.put(key.substring(10), perEvent);
                }
            } else {
                db.put(key, perEvent);
            }
        });
        db.set("rows_inserted_by_table", tables);
        if (!byQuery.isEmpty()) {
            db.set("statements_by_query", byQuery);
        }

        ArrayNode timeline = result.putArray("timeline");
        for (int s = 0; s < perSecond.length; s++) {
            Histogram h = perSecond[s].copy();
            if (h.getTotalCount() == 0 && sentPerSecond[s] == 0) {
                continue;
            }
            ObjectNode row = timeline.addObject();
            row.put("s", s);
            row.put("sent", sentPerSecond[s]);
            row.put("invokes", h.getTotalCount());
            if (h.getTotalCount() > 0) {
                row.put("p50_ms", Latency.ms(h.getValueAtPercentile(50)));
                row.put("p99_ms", Latency.ms(h.getValueAtPercentile(99)));
                row.put("max_ms", Latency.ms(h.getMaxValue()));
            }
        }

        // the first two minutes of service as a figure of their own (issue 25's cold node): from a
        // run with --warmup 0 the measured phase begins with the first event after the start
        ObjectNode windows = result.putObject("service_by_window");
        window(windows, "first_30_s", 0, 30);
        window(windows, "from_30_to_120_s", 30, 120);
        windows.put("second_from_which_p99_stays_le_50ms", settledFrom(50));

        if (sessions != null) {
            ObjectNode llm = sessionCost(sessions, nodes, mosquitto, clkTck, idleCores,
                    args.integer("llm-cost-seconds", 30));
            llm.put("runs_during_load", sessionRunsDuringLoad);
            llm.put("model_turns_during_load", sessionTurnsDuringLoad);
            llm.put("what", "runs of N llm sessions kept going during the rules load (the latency above is the "
                    + "rules runs' with them); cost_sessions_only: the sessions alone, no rules load, per model turn");
            result.set("llm_sessions", llm);
            sessions.close();
            fakeModel.close();
        }

        ratios(floors);

        result.set("targets", Targets.judge(result));

        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, Rest.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(result));
        System.out.println();
        System.out.println(Table.render(result));
        System.out.println("result: " + out);

        pool.shutdown();
        ExecutorService closers = Executors.newFixedThreadPool(16);
        boards.forEach(b -> closers.submit(b::close));
        closers.shutdown();
        closers.awaitTermination(30, TimeUnit.SECONDS);
        boardScheduler.shutdownNow();
        long losses = expected - invokesReceived.get();
        return losses == 0 && duplicates.get() == 0 ? 0 : 1;
    }

    /**
     * The engine's and the database's cost of one llm session turn: the sessions alone for
     * {@code seconds}, CPU of the platform (also above its idle cost) and of PostgreSQL, and the
     * database's commits and rows, each divided by the model turns answered meanwhile.
     */
    private ObjectNode sessionCost(SessionLoad sessions, List<ProcStats> nodes, ProcStats mosquitto, long clkTck,
            double idleCores, int seconds) throws Exception {
        log("llm sessions alone for %d s: the cost of a turn", seconds);
        Thread.sleep(1_500);
        Map<String, Long> dbFrom = dbWrites();
        CpuSnapshot from = CpuSnapshot.take(nodes, mosquitto, clkTck, this);
        long turnsFrom = sessions.turns();
        long runsFrom = sessions.runsStarted();
        sessions.start();
        Thread.sleep(seconds * 1000L);
        sessions.stop();
        CpuSnapshot to = CpuSnapshot.take(nodes, mosquitto, clkTck, this);
        Thread.sleep(1_500); // PostgreSQL flushes its statistics about once a second
        Map<String, Long> dbTo = dbWrites();
        double turns = Math.max(1, sessions.turns() - turnsFrom);
        double wall = (to.nanos() - from.nanos()) / 1e9;
        ObjectNode out = sessions.report();
        ObjectNode cost = out.putObject("cost_sessions_only");
        cost.put("seconds", round(wall));
        cost.put("runs", sessions.runsStarted() - runsFrom);
        cost.put("model_turns", (long) turns);
        cost.put("model_turns_per_s", round(turns / wall));
        cost.put("platform_cpu_ms_per_turn", round((to.platform() - from.platform()) * 1000 / turns));
        cost.put("platform_cpu_ms_per_turn_above_idle",
                round((to.platform() - from.platform() - idleCores * wall) * 1000 / turns));
        cost.put("platform_cores", round((to.platform() - from.platform()) / wall));
        cost.put("postgres_cpu_ms_per_turn", round((to.postgres() - from.postgres()) * 1000 / turns));
        ObjectNode tables = cost.putObject("rows_inserted_by_table_per_turn");
        ObjectNode byQuery = Rest.JSON.createObjectNode();
        dbTo.forEach((key, after) -> {
            double perTurn = round((after - dbFrom.getOrDefault(key, 0L)) / turns);
            if (key.startsWith("table.")) {
                if (perTurn >= 0.05) {
                    tables.put(key.substring(6), perTurn);
                }
            } else if (key.startsWith("statement.")) {
                if (perTurn >= 0.05) {
                    byQuery.put(key.substring(10), perTurn);
                }
            } else {
                cost.put(key + "_per_turn", perTurn);
            }
        });
        if (!byQuery.isEmpty()) {
            cost.set("statements_by_query_per_turn", byQuery); // where a turn's statements go
        }
        log("a turn: platform %.2f ms CPU (%.2f above idle), PostgreSQL %.2f ms, %.1f commits", cost.path(
                "platform_cpu_ms_per_turn").asDouble(), cost.path("platform_cpu_ms_per_turn_above_idle").asDouble(),
                cost.path("postgres_cpu_ms_per_turn").asDouble(), cost.path("commits_per_turn").asDouble());
        return out;
    }

    // ---------------------------------------------------------------------- the gadget side

    private DeskBot startBoard(LinkConfig link, int index, ScheduledExecutorService scheduler) {
        DeskBot bot = new DeskBot(link, scheduler);
        bot.setHistoryLimit(16);
        bot.setAmbientImu(false);
        bot.onInvocation(inv -> onInvocation(index, inv, System.nanoTime()));
        bot.start();
        if (!bot.awaitRegistered(Duration.ofSeconds(60))) {
            throw new IllegalStateException(link.gadgetId() + " did not register");
        }
        return bot;
    }

    private void onInvocation(int gadget, ReceivedInvocation invocation, long now) {
        if (invocation.handling() == ReceivedInvocation.Handling.REPLAYED) {
            redelivered.incrementAndGet(); // the same invocation id again: the board answered from its store
            return;
        }
        Object text = invocation.params().get("text");
        int sep = text == null ? -1 : text.toString().indexOf(SEP);
        Sent s = sep < 0 ? null : sent.get(text.toString().substring(0, sep));
        if (s == null || s.gadget != gadget) {
            unexpected.incrementAndGet();
            return;
        }
        if (!s.answeredBy.add(text.toString().substring(sep + 1))) {
            duplicates.incrementAndGet(); // a second invocation for the same (event, agent): a second run
            return;
        }
        invokesReceived.incrementAndGet();
        if (s.measured) {
            long nanos = now - s.sentNanos;
            latency.recordNanos(nanos);
            invokesMeasured.incrementAndGet();
            lastMeasuredInvoke.accumulateAndGet(now, Math::max);
            Latency[] buckets = perSecond;
            int second = (int) Math.min(buckets.length - 1, Math.max(0, (s.sentNanos - measureStart) / 1_000_000_000L));
            buckets[second].recordNanos(nanos);
        }
    }

    /** Event → invoke p50/p99 over the measured seconds [from, to), all their invokes together. */
    private void window(ObjectNode into, String name, int from, int to) {
        Histogram merged = null;
        for (int s = from; s < Math.min(to, perSecond.length - 1); s++) {
            Histogram h = perSecond[s].copy();
            if (merged == null) {
                merged = h;
            } else {
                merged.add(h);
            }
        }
        ObjectNode w = into.putObject(name);
        w.put("invokes", merged == null ? 0 : merged.getTotalCount());
        if (merged != null && merged.getTotalCount() > 0) {
            w.put("p50_ms", Latency.ms(merged.getValueAtPercentile(50)));
            w.put("p99_ms", Latency.ms(merged.getValueAtPercentile(99)));
        }
    }

    /**
     * The first measured second from which every second's p99 stays at or under {@code ms}: how
     * long a node served slowly; -1 if its last second was still over.
     */
    private int settledFrom(double ms) {
        int from = 0;
        for (int s = 0; s < perSecond.length - 1; s++) {
            Histogram h = perSecond[s].copy();
            if (h.getTotalCount() > 0 && Latency.ms(h.getValueAtPercentile(99)) > ms) {
                from = s + 1;
            }
        }
        return from >= perSecond.length - 1 ? -1 : from;
    }

    // ---------------------------------------------------------------------- gates

    private ObjectNode gates(Rest owner, String suffix, int samples) {
        ObjectNode out = Rest.JSON.createObjectNode();
        if (samples <= 0) {
            out.put("measured", false);
            out.put("reason", "--gate-samples 0");
            return out;
        }
        Rover rover = null;
        try {
            LinkConfig link = pair(owner, "bench-" + suffix + "-rover", "Bench rover");
            rover = new Rover(link);
            AtomicLong invokedAt = new AtomicLong();
            rover.onInvocation(inv -> invokedAt.compareAndSet(0, System.nanoTime()));
            rover.start();
            if (!rover.awaitRegistered(Duration.ofSeconds(20))) {
                throw new IllegalStateException("the rover did not register");
            }
            String g = link.gadgetId();
            String agent = owner.post("/api/v1/gadget-agents", """
                    {"apiVersion":"ringzero/v1","name":"bench gated drive","gadgets":["%1$s"],"kind":"rules",
                     "triggers":[{"kind":"invoke"}],
                     "actions":[{"gadget":"%1$s","command":"chassis.drive","params":{"left":20,"right":20,"duration_ms":20}}],
                     "allow":{"commands":["chassis.drive"],"physical":true},
                     "budget":{"runsPerHour":3600,"cooldownSeconds":0,"maxRunSeconds":30},
                     "concurrency":"parallel","maxParallel":16}
                    """.formatted(g)).expect(201, "creating the gated rover agent").json().get("id").asText();
            Latency approvalToInvoke = new Latency();
            Latency approveHttp = new Latency();
            for (int i = 0; i < samples; i++) {
                String runId = owner.post("/api/v1/gadget-agents/" + agent + "/runs", "{}")
                        .expect(202, "starting a gated run").json().path("runId").asText();
                String gateId = awaitGate(owner, runId, Duration.ofSeconds(15));
                if (gateId == null) {
                    JsonNode run = owner.get("/api/v1/runs/" + runId).json();
                    out.put("measured", false);
                    out.put("reason", "no pending gate appeared for a chassis.drive run within 15 s; run status "
                            + run.path("status").asText() + ", action outcome "
                            + run.at("/actions/0/outcome").asText("none") + " "
                            + run.at("/actions/0/errorCode").asText(""));
                    return out;
                }
                invokedAt.set(0);
                long t0 = System.nanoTime();
                Rest.Response approved = owner.post("/api/v1/gates/" + gateId + "/approve", "{}");
                long t1 = System.nanoTime();
                if (approved.status() / 100 != 2) {
                    out.put("measured", false);
                    out.put("reason", "approving gate answered " + approved.status() + ": " + approved.body());
                    return out;
                }
                approveHttp.recordNanos(t1 - t0);
                long deadline = System.nanoTime() + 15_000_000_000L;
                while (invokedAt.get() == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                if (invokedAt.get() == 0) {
                    JsonNode gate = owner.get("/api/v1/gates/" + gateId).json();
                    out.put("measured", false);
                    out.put("reason", "an approved chassis.drive gate sent no link.invoke to the rover within 15 s "
                            + "(gate state " + gate.path("state").asText() + ")");
                    return out;
                }
                approvalToInvoke.recordNanos(invokedAt.get() - t0);
                Thread.sleep(100); // the 20 ms drive ends; the next one would be refused as busy
            }
            out.put("measured", true);
            out.set("approve_post_to_invoke", approvalToInvoke.toJson());
            out.set("approve_http_response", approveHttp.toJson());
            return out;
        } catch (RuntimeException | InterruptedException e) {
            out.put("measured", false);
            out.put("reason", e.getMessage());
            return out;
        } finally {
            if (rover != null) {
                rover.close();
            }
        }
    }

    /** The id of the pending gate {@code runId} filed, once the owner's desk lists it; null after {@code timeout}. */
    static String awaitGate(Rest owner, String runId, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Rest.Response r = owner.get("/api/v1/gates?state=pending");
            if (r.status() == 200) {
                for (JsonNode gate : r.json()) {
                    if (runId.equals(gate.path("runId").asText())) {
                        return gate.path("id").asText();
                    }
                }
            }
            Thread.sleep(50);
        }
        return null;
    }

    // ---------------------------------------------------------------------- platform side

    private static LinkConfig pair(Rest owner, String id, String name) {
        Rest.Response response = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            response = owner.post("/api/v1/gadgets", "{\"id\":\"" + id + "\",\"name\":\"" + name + "\"}");
            if (response.status() / 100 != 5) {
                break;
            }
            log("pairing %s answered %d; trying again", id, response.status());
        }
        JsonNode paired = response.expect(201, "pairing " + id).json();
        return new LinkConfig(paired.at("/mqtt/url").asText(), id, paired.at("/mqtt/password").asText());
    }

    /** "When shaken, show text": the text names the event and the agent, so the gadget can correlate. */
    static String showText(String gadget, int index) {
        return """
                {"apiVersion":"ringzero/v1","name":"bench show text %2$d","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"gadget.event","gadget":"%1$s","event":"shaken"}],
                 "actions":[{"gadget":"%1$s","command":"display.show_text","params":{"text":"{{event.id}}%3$s{{run.agent}}"}}],
                 "allow":{"commands":["display.show_text"]},
                 "budget":{"runsPerHour":3600,"cooldownSeconds":0,"maxRunSeconds":30},
                 "concurrency":"parallel","maxParallel":16}
                """.formatted(gadget, index, SEP);
    }

    /** A counter of the platform's, summed over its nodes (each counts what it handled); NaN if a node does not answer. */
    private double metric(String name, String label) {
        double sum = 0;
        for (String node : nodeUrls) {
            // the scrape needs an administrator's login (web.ActuatorGuard)
            Rest.Response r;
            try {
                r = Rest.at(node).basic("admin", args.required("admin-password")).get("/actuator/prometheus");
            } catch (IllegalStateException notAnswering) {
                return Double.NaN;
            }
            if (r.status() != 200) {
                return Double.NaN;
            }
            for (String line : r.body().split("\n")) {
                if ((line.startsWith(name + "{") || line.startsWith(name + " ")) && line.contains(label)) {
                    sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
        }
        return sum;
    }

    /** The waits for the devices-first slot so far, summed over the nodes (NaN where a node does not answer). */
    private SlotWaits slotWaits() {
        String name = "ringzero_devices_first_wait_seconds";
        return new SlotWaits(metric(name + "_count", "slot=\"taken\""), metric(name + "_sum", "slot=\"taken\""),
                metric(name + "_count", "slot=\"missed\""), metric(name + "_sum", "slot=\"missed\""));
    }

    /** Waits for the devices-first slot: how many took one and how many went on without, with their seconds. */
    private record SlotWaits(double taken, double takenSeconds, double missed, double missedSeconds) {
        SlotWaits minus(SlotWaits before) {
            return new SlotWaits(taken - before.taken, takenSeconds - before.takenSeconds, missed - before.missed,
                    missedSeconds - before.missedSeconds);
        }
    }

    /** The nodes' CPU seconds together. */
    private static double cpuSeconds(List<ProcStats> nodes) {
        return nodes.stream().mapToDouble(ProcStats::cpuSeconds).sum();
    }

    private Map<String, Long> runCounts(String ownerId) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        try (Connection c = database();
             PreparedStatement s = c.prepareStatement("select status, count(*) from rz_run where owner_id = ? "
                     + "and trigger_kind = 'gadget.event' group by status order by status")) {
            s.setString(1, ownerId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    counts.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return counts;
    }

    /** Commits and rows written in the bench database, and rows inserted per table (pg_stat views). */
    private Map<String, Long> dbWrites() throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Connection c = database()) {
            try (PreparedStatement s = c.prepareStatement("select xact_commit, xact_rollback, tup_inserted, tup_updated, "
                    + "tup_deleted from pg_stat_database where datname = current_database()");
                 ResultSet rs = s.executeQuery()) {
                if (rs.next()) {
                    out.put("commits", rs.getLong(1));
                    out.put("rollbacks", rs.getLong(2));
                    out.put("rows_inserted", rs.getLong(3));
                    out.put("rows_updated", rs.getLong(4));
                    out.put("rows_deleted", rs.getLong(5));
                }
            }
            try (PreparedStatement s = c.prepareStatement("select relname, n_tup_ins from pg_stat_user_tables");
                 ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.put("table." + rs.getString(1).toLowerCase(java.util.Locale.ROOT), rs.getLong(2));
                }
            }
            // every inserted row and every update that is not HOT writes one entry into each index of
            // its table (a HOT update touches none); deletes leave their entries to vacuum
            try (PreparedStatement s = c.prepareStatement("select coalesce(sum((t.n_tup_ins + t.n_tup_upd - "
                    + "t.n_tup_hot_upd) * (select count(*) from pg_index i where i.indrelid = t.relid)), 0) "
                    + "from pg_stat_user_tables t");
                 ResultSet rs = s.executeQuery()) {
                if (rs.next()) {
                    out.put("index_entries_written", rs.getLong(1));
                }
            }
            statements(c).ifPresent(n -> out.put("statements", n));
            out.putAll(statementsByQuery(c));
        }
        return out;
    }

    /**
     * Calls per statement text (its first 200 characters), as {@code statement.}-keyed counters,
     * so a result says where its statements per event go; empty where the module is not loaded.
     */
    private static Map<String, Long> statementsByQuery(Connection c) {
        Map<String, Long> out = new LinkedHashMap<>();
        try (PreparedStatement s = c.prepareStatement("select left(regexp_replace(query, '\\s+', ' ', 'g'), 200), "
                + "sum(calls) from pg_stat_statements "
                + "where dbid = (select oid from pg_database where datname = current_database()) "
                + "and query not like '%pg_stat%' and query not like '%pg_settings%' "
                + "and query not like 'select status, count(*) from rz_run%' group by 1");
             ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                out.merge("statement." + rs.getString(1), rs.getLong(2), Long::sum);
            }
        } catch (SQLException notLoaded) {
            return Map.of();
        }
        return out;
    }

    /**
     * Statements the platform ran in the bench database (pg_stat_statements, when the server loads
     * it: run.sh's own server does), the harness's own counting and statistics queries left out.
     */
    private static java.util.OptionalLong statements(Connection c) {
        try (PreparedStatement s = c.prepareStatement("select coalesce(sum(calls), 0) from pg_stat_statements "
                + "where dbid = (select oid from pg_database where datname = current_database()) "
                + "and query not like '%pg_stat%' and query not like '%pg_settings%' "
                + "and query not like 'select status, count(*) from rz_run%'");
             ResultSet rs = s.executeQuery()) {
            return rs.next() ? java.util.OptionalLong.of(rs.getLong(1)) : java.util.OptionalLong.empty();
        } catch (SQLException notLoaded) {
            return java.util.OptionalLong.empty();
        }
    }

    /**
     * The server's settings that decide what a commit and a churned table cost: the engine's runtime
     * tables are insert-then-delete queues, so without autovacuum they only grow during a run.
     */
    private ObjectNode postgresSettings() throws SQLException {
        ObjectNode settings = Rest.JSON.createObjectNode();
        try (Connection c = database();
             PreparedStatement s = c.prepareStatement("select name, current_setting(name) from pg_settings "
                     + "where name in ('server_version', 'autovacuum', 'autovacuum_naptime', 'synchronous_commit', "
                     + "'fsync', 'shared_buffers', 'max_wal_size') order by name");
             ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                settings.put(rs.getString(1), rs.getString(2));
            }
        }
        return settings;
    }

    /** A connection to the benchmark's database (for its counts and statistics, not the floor). */
    private Connection database() throws SQLException {
        return DriverManager.getConnection(args.required("jdbc"), args.text("db-user", "postgres"),
                args.text("db-password", ""));
    }

    private static long active(Map<String, Long> runs) {
        return runs.getOrDefault("admitted", 0L) + runs.getOrDefault("running", 0L) + runs.getOrDefault("queued", 0L);
    }

    // ---------------------------------------------------------------------- results

    private void ratios(ObjectNode floors) {
        ObjectNode ratios = result.putObject("ratios");
        JsonNode l = result.get("latency_event_to_invoke");
        JsonNode mqtt = floors.get("mqtt_round_trip");
        JsonNode pg = floors.get("pg_commit");
        for (String p : List.of("p50_ms", "p99_ms")) {
            if (l.has(p) && mqtt.has(p) && mqtt.get(p).asDouble() > 0) {
                ratios.put(p.replace("_ms", "") + "_vs_mqtt_round_trip", round(l.get(p).asDouble() / mqtt.get(p).asDouble()));
            }
            if (l.has(p) && pg.has(p) && pg.get(p).asDouble() > 0) {
                ratios.put(p.replace("_ms", "") + "_vs_pg_commit", round(l.get(p).asDouble() / pg.get(p).asDouble()));
            }
        }
        if (l.has("p50_ms") && mqtt.has("p50_ms")) {
            ratios.put("p50_above_mqtt_floor_ms", round(l.get("p50_ms").asDouble() - mqtt.get("p50_ms").asDouble()));
        }
    }

    // ---------------------------------------------------------------------- helpers

    private static <T> List<T> parallel(ExecutorService pool, int n, Function<Integer, T> task) throws Exception {
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int index = i;
            futures.add(pool.submit(() -> task.apply(index)));
        }
        List<T> out = new ArrayList<>();
        for (Future<T> f : futures) {
            out.add(f.get());
        }
        return out;
    }

    private static void jcmd(long pid, String... command) {
        List<String> cmd = new ArrayList<>(List.of("jcmd", Long.toString(pid)));
        cmd.addAll(List.of(command));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0) {
                log("jcmd %s failed: %s", String.join(" ", command), output.trim());
            }
        } catch (IOException e) {
            log("jcmd unavailable: %s", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * CPU seconds of every process at one instant, the platform's by thread, and the events the
     * platform had admitted: what the load window and the measured phase are both measured with.
     */
    record CpuSnapshot(long nanos, double admitted, double platform, Map<String, Double> platformThreads,
            double postgres, double mosquitto, double harness, double[] nodes) {

        /** Now; null (the phase goes unreported) if the platform's metrics cannot be read. */
        static CpuSnapshot takeOrNull(List<ProcStats> platform, ProcStats mosquitto, long clkTck, LoadBench bench) {
            try {
                CpuSnapshot now = take(platform, mosquitto, clkTck, bench);
                return Double.isNaN(now.admitted) || Double.isNaN(now.platform) ? null : now;
            } catch (Exception e) {
                log("no CPU snapshot of the measured phase: %s", e);
                return null;
            }
        }

        private static CpuSnapshot take(List<ProcStats> nodes, ProcStats mosquitto, long clkTck, LoadBench bench) {
            double[] byNode = nodes.stream().mapToDouble(ProcStats::cpuSeconds).toArray();
            Map<String, Double> threads = new java.util.TreeMap<>();
            for (int n = 0; n < nodes.size(); n++) {
                // with several nodes a thread's name says its node: "n2 link-worker-"
                String prefix = nodes.size() == 1 ? "" : "n" + (n + 1) + " ";
                nodes.get(n).cpuSecondsByThread().forEach((name, cpu) -> threads.put(prefix + name, cpu));
            }
            // PostgreSQL: the server the platform uses (--postgres-pid, its postmaster) or, without it,
            // every PostgreSQL process on the machine
            long postgresPid = bench.args.longValue("postgres-pid", 0);
            double postgres = postgresPid > 0 ? ProcStats.cpuSecondsOfTree(postgresPid, clkTck)
                    : ProcStats.cpuSecondsOfAllNamed("postgres", clkTck);
            return new CpuSnapshot(System.nanoTime(), bench.metric("ringzero_events_total", "result=\"admitted\""),
                    nodes.isEmpty() ? Double.NaN : java.util.Arrays.stream(byNode).sum(), threads, postgres,
                    mosquitto == null ? Double.NaN : mosquitto.cpuSeconds(), harnessCpuSeconds(), byNode);
        }

        /** Cores each process used from this snapshot to {@code later}, and CPU ms per event admitted meanwhile. */
        ObjectNode until(CpuSnapshot later) {
            double wall = (later.nanos - nanos) / 1e9;
            double events = Math.max(1, later.admitted - admitted);
            double jit = 0;
            ObjectNode threads = Rest.JSON.createObjectNode();
            for (Map.Entry<String, Double> thread : later.platformThreads.entrySet()) {
                double used = thread.getValue() - platformThreads.getOrDefault(thread.getKey(), 0.0);
                if (used >= 0.05 * wall) {
                    threads.put(thread.getKey().trim(), round(used / wall));
                }
                if (thread.getKey().contains("CompilerThre")) {
                    jit += used;
                }
            }
            ObjectNode phase = Rest.JSON.createObjectNode();
            phase.put("seconds", round(wall));
            phase.put("events_admitted", (long) (later.admitted - admitted));
            ObjectNode cores = phase.putObject("cores");
            cores.put("platform", round((later.platform - platform) / wall));
            cores.put("platform_jit_compilers", round(jit / wall));
            cores.put("postgresql", round((later.postgres - postgres) / wall));
            cores.put("mosquitto", round((later.mosquitto - mosquitto) / wall));
            cores.put("harness", round((later.harness - harness) / wall));
            if (nodes.length > 1) {
                ObjectNode byNode = phase.putObject("cores_by_node");
                ObjectNode msByNode = phase.putObject("cpu_ms_per_admitted_event_by_node");
                for (int n = 0; n < nodes.length; n++) {
                    byNode.put("node" + (n + 1), round((later.nodes[n] - nodes[n]) / wall));
                    msByNode.put("node" + (n + 1), round((later.nodes[n] - nodes[n]) * 1000 / events));
                }
            }
            ObjectNode perEvent = phase.putObject("cpu_ms_per_admitted_event");
            perEvent.put("platform", round((later.platform - platform) * 1000 / events));
            perEvent.put("platform_without_jit", round((later.platform - platform - jit) * 1000 / events));
            perEvent.put("postgresql", round((later.postgres - postgres) * 1000 / events));
            perEvent.put("mosquitto", round((later.mosquitto - mosquitto) * 1000 / events));
            perEvent.put("all_measured", round((later.platform - platform + later.postgres - postgres
                    + later.mosquitto - mosquitto + later.harness - harness) * 1000 / events));
            phase.set("platform_cores_by_thread", threads);
            return phase;
        }
    }

    private static double harnessCpuSeconds() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime() / 1e9;
        }
        return Double.NaN;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "";
        }
    }

    private static double secondsSince(long nanos) {
        return round((System.nanoTime() - nanos) / 1e9);
    }

    static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    static void log(String format, Object... values) {
        System.out.printf("[bench %s] %s%n", java.time.LocalTime.now().withNano(0), String.format(format, values));
    }

    static {
        // quiet Paho and the boards: one line per record, warnings only
        System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tT.%1$tL %4$-7s %5$s%6$s%n");
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
    }
}
