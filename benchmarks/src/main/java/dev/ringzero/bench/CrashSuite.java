package dev.ringzero.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.firmware.DeskBot;
import dev.ringzero.firmware.LinkConfig;
import dev.ringzero.firmware.ReceivedInvocation;
import dev.ringzero.firmware.Rover;

/**
 * The fault suite (issues 22 and 26): the platform as a real process, killed with SIGKILL at
 * seeded random moments while simulated boards load it, started again on the same data, and
 * then judged by what the boards saw:
 * <ul>
 *   <li>every event the broker acknowledged to a board has a run or a visible shed decision;</li>
 *   <li>every command a board received is named by its run (the run's action has its invocation id);</li>
 *   <li>no effect happened twice: one execution per (gadget, event), whatever the invocation ids;</li>
 *   <li>no run is still active once its deadline has passed;</li>
 *   <li>a gate approved for a physical command, killed between the approval and the device's answer,
 *       is never {@code pending} again, ends, and the rover drove at most once.</li>
 * </ul>
 * The same checks on either shape: {@code default} (H2 file + embedded broker, {@code java -jar} with
 * nothing else) or {@code production} (PostgreSQL + RingZero's Mosquitto, which outlive the kill).
 * On the production shape the suite can also restart the broker under load
 * ({@link #withBrokerRestarts}) and, on a PostgreSQL server of its own, the database
 * ({@link #withDatabaseRestarts}): after the kills and the gates, in a second stretch of load
 * that no kill follows, so whatever the outage left broken in the running platform (a pool, the
 * job executor, a lane, a scheduler) is still broken when the counts are taken. After each
 * outage the platform must be healthy again and route an event sent after the server came back,
 * within {@link #RECOVERY_TIMEOUT}, and a gate filed after the outages must end.
 * {@link #main} prints one line per finding and a summary; exit status 0 only if every count is zero.
 *
 * <p>{@code --nodes N} (production shape only, issue 24) runs N nodes in cluster mode on the one
 * PostgreSQL and the one broker, each with its node id, HTTP port and data directory; each kill
 * picks a node at seeded random and restarts it while the others carry on, and REST calls go to a
 * node that is up. The judgement is the same; the suite also says which node held which partition
 * after each restart and at the end.
 */
public final class CrashSuite {

    private static final Pattern EVENT_ID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Set<String> ACTIVE = Set.of("admitted", "queued", "running");
    private static final Set<String> GATE_ENDS = Set.of("executed", "failed", "unknown", "expired", "denied");
    /** The agents' maxRunSeconds: a run still active this long after its start (plus slack) broke its deadline. */
    private static final int MAX_RUN_SECONDS = 20;
    /**
     * The llm agent's maxRunSeconds: longer than a restart (15 to 20 s here), so a killed session
     * can resume and finish rather than only run out of time.
     */
    private static final int SESSION_MAX_RUN_SECONDS = 60;
    /** How long the platform may take, once PostgreSQL accepts connections again, to be healthy and route anew. */
    static final Duration RECOVERY_TIMEOUT = Duration.ofSeconds(60);
    /**
     * How long a gated run may take to file its gate. Generous: right after a restart or an outage
     * the node still works off the backlog of a loaded stretch, on a CI machine's two slow cores.
     */
    private static final Duration GATE_FILED_TIMEOUT = Duration.ofSeconds(90);
    /** How long a gate try waits for the rover to be online again (it reconnects with backoff). */
    private static final Duration ROVER_ONLINE_TIMEOUT = Duration.ofSeconds(60);

    /** What one run of the suite found; every count must be zero. */
    record Findings(String shape, long seed, int kills, long acknowledged, long routed, long shed,
            long acknowledgedWithoutDecision, long invocations, long invocationsNotNamedByARun,
            long effectsTwice, long runsActiveAfterDeadline, int gateTries, long gatesPendingAfterApproval,
            long gatesNotEnded, long gateDrivesTwice, int databaseRestarts, long notRecovered,
            List<String> recoveries, long executedButUnknown, int sessionTries, List<String> details,
            String partitions) {

        boolean clean() {
            return acknowledgedWithoutDecision == 0 && invocationsNotNamedByARun == 0 && effectsTwice == 0
                    && runsActiveAfterDeadline == 0 && gatesPendingAfterApproval == 0 && gatesNotEnded == 0
                    && gateDrivesTwice == 0 && notRecovered == 0;
        }

        String summary() {
            return String.format("%s seed=%d kills=%d: acknowledged=%d routed=%d shed=%d | acknowledged without "
                    + "decision=%d, invocations=%d not named by a run=%d, effects twice=%d, runs active after "
                    + "deadline=%d | gates=%d pending after approval=%d not ended=%d drove twice=%d | (not counted: "
                    + "executed at a board but unknown in its run=%d)%s%s%s", shape, seed,
                    kills, acknowledged, routed, shed, acknowledgedWithoutDecision, invocations,
                    invocationsNotNamedByARun, effectsTwice, runsActiveAfterDeadline, gateTries,
                    gatesPendingAfterApproval, gatesNotEnded, gateDrivesTwice, executedButUnknown,
                    sessionTries == 0 ? "" : String.format(" | llm sessions killed=%d", sessionTries),
                    databaseRestarts == 0 ? ""
                            : String.format(" | database restarts=%d not recovered=%d (%s)", databaseRestarts,
                                    notRecovered, String.join("; ", recoveries)),
                    partitions.isEmpty() ? "" : " | partitions at the end: " + partitions);
        }
    }

    /**
     * How to run: the shape's environment and the load. {@code nodes}: the platform's nodes (more than
     * one only on the production shape, in cluster mode); {@code loadSeconds}: the stretch of load the
     * kills fall in (0: each kill 3 to 10 s after the last start, then 3 to 6 s more load).
     */
    record Plan(String shape, Path jar, Path dataDir, int httpPort, Map<String, String> environment, long seed,
            int gadgets, double rate, int kills, int gateKills, int nodes, int loadSeconds) {

        Plan {
            if (nodes < 1) {
                throw new IllegalArgumentException("--nodes is 1 or more");
            }
            if (nodes > 1 && !shape.equals("production")) {
                throw new IllegalArgumentException("--nodes " + nodes + " needs --shape production: the nodes of a "
                        + "cluster share one PostgreSQL and one external broker, while the default shape's H2 file "
                        + "and embedded broker belong to one process");
            }
        }

        /** One node, the kills' moments as before the cluster (what CrashSuiteTest runs). */
        Plan(String shape, Path jar, Path dataDir, int httpPort, Map<String, String> environment, long seed,
                int gadgets, double rate, int kills, int gateKills) {
            this(shape, jar, dataDir, httpPort, environment, seed, gadgets, rate, kills, gateKills, 1, 0);
        }

        /** Node {@code n} (from 0) listens on the HTTP port after the previous node's. */
        int httpPort(int n) {
            return httpPort + n;
        }

        /** One node keeps the data directory itself; several, a directory each under it. */
        Path dataDir(int n) {
            return nodes == 1 ? dataDir : dataDir.resolve("node-" + (n + 1));
        }

        /** Node {@code n}'s environment: with several nodes, cluster mode and a node id of its own (1, 2, ...). */
        Map<String, String> environment(int n) {
            Map<String, String> env = new LinkedHashMap<>(environment);
            if (nodes > 1) {
                env.put("RINGZERO_CLUSTER", "true");
                env.put("RINGZERO_MQTT_NODE_ID", String.valueOf(n + 1));
            }
            return env;
        }
    }

    /** The platform's nodes, each a process of its own; started one after the other (the first creates the schema). */
    static final class Nodes implements AutoCloseable {

        private final List<PlatformProcess> processes = new ArrayList<>();

        Nodes(Plan plan, Map<String, String> extraEnvironment) {
            for (int n = 0; n < plan.nodes(); n++) {
                Map<String, String> env = plan.environment(n);
                env.putAll(extraEnvironment);
                processes.add(new PlatformProcess(plan.jar(), plan.dataDir(n), plan.httpPort(n), env));
            }
        }

        PlatformProcess get(int n) {
            return processes.get(n);
        }

        int size() {
            return processes.size();
        }

        List<String> baseUrls() {
            return processes.stream().map(PlatformProcess::baseUrl).toList();
        }

        @Override
        public void close() throws InterruptedException {
            for (PlatformProcess process : processes) {
                process.close();
            }
        }
    }

    private final Plan plan;
    private final Random random;
    private final Map<String, Set<String>> acknowledged = new ConcurrentHashMap<>();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final List<String> details = new CopyOnWriteArrayList<>();

    /** A command as a board saw it. */
    private record Seen(String gadget, ReceivedInvocation invocation) {
    }

    /**
     * The load's own events (a board also sends link signals such as speaker_idle, which start
     * nothing): by which board each was sent, and when (System.nanoTime).
     */
    private final Map<String, long[]> sent = new ConcurrentHashMap<>();
    private final List<String> recoveries = new CopyOnWriteArrayList<>();
    private int kills;
    private long notRecovered;

    private int brokerRestarts;
    private Runnable brokerRestart;
    private int databaseRestarts;
    private PostgresCluster database;
    private int sessionKills;
    private FakeModel model;
    private int sessionTries;
    private long sessionEffectsTwice;
    private long sessionInvocationsUnnamed;
    private long sessionRunsActive;

    CrashSuite(Plan plan) {
        this.plan = plan;
        this.random = new Random(plan.seed());
    }

    /** Also restarts the (external) broker this many times under load, after the platform's kills. */
    CrashSuite withBrokerRestarts(int times, Runnable restart) {
        this.brokerRestarts = times;
        this.brokerRestart = restart;
        return this;
    }

    /**
     * Also restarts {@code cluster} (the platform's database, a server of the suite's own) this many
     * times under load, in a stretch of load after the gates: alternately {@code pg_ctl restart -m fast}
     * and a stop, a pause of 3 to 6 s (connections refused) and a start.
     */
    CrashSuite withDatabaseRestarts(int times, PostgresCluster cluster) {
        this.databaseRestarts = times;
        this.database = cluster;
        return this;
    }

    /**
     * Also kills the platform this many times in the middle of an {@code llm} session (issue 18),
     * against {@code model}: at a seeded moment between the run's start and a little after its
     * second model turn would end, so a kill lands while the model thinks, around the device
     * command the model asked for, or while the final turn is played. Counted: the command
     * executed twice, a command no run names, the run not ended by its deadline.
     */
    CrashSuite withSessionKills(int times, FakeModel fakeModel) {
        this.sessionKills = times;
        this.model = fakeModel;
        return this;
    }

    /**
     * {@code --shape production --jdbc URL --mqtt-service-password P --broker-state DIR} against running
     * services; {@code --db-restarts N --pg-data DIR --pg-port P} gives the platform a PostgreSQL server
     * of the suite's own there (instead of {@code --jdbc}) and restarts it N times under load;
     * {@code --session-kills N [--model-latency-ms 1000]} kills N llm sessions mid-way against a
     * fake model of that latency. {@code --nodes N} (production shape) runs a cluster of N nodes,
     * HTTP from {@code --http-port} up; {@code --load-seconds S} spreads the kills over a stretch of
     * S seconds; {@code --pg-data DIR} alone gives the platform a PostgreSQL of the suite's own
     * without restarting it (what {@code benchmarks/cluster.sh} uses).
     */
    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        PostgresCluster cluster = null;
        FakeModel model = null;
        Findings findings;
        if (args.integer("nodes", 1) > 1 && (args.integer("db-restarts", 0) > 0
                || args.integer("session-kills", 0) > 0)) {
            // their recovery checks and kills watch one platform process
            throw new IllegalArgumentException("--db-restarts and --session-kills are for one node; drop them or "
                    + "--nodes");
        }
        if (args.integer("db-restarts", 0) > 0 || args.all().containsKey("pg-data")) {
            cluster = PostgresCluster.start(Path.of(args.required("pg-data")), args.integer("pg-port", 18912));
            cluster.createDatabase("ringzero_fault");
            args.all().put("jdbc", cluster.jdbc("ringzero_fault"));
        }
        try {
            Plan plan = plan(args);
            CrashSuite suite = new CrashSuite(plan);
            if (args.all().containsKey("broker-state")) {
                Path repo = Path.of(args.text("repo", "..")).toAbsolutePath();
                suite.withBrokerRestarts(args.integer("broker-restarts", 1), mosquittoRestart(repo,
                        Path.of(args.required("broker-state")), args.integer("mqtt-port", 18910),
                        args.required("mqtt-service-password")));
            }
            if (cluster != null && args.integer("db-restarts", 0) > 0) {
                suite.withDatabaseRestarts(args.integer("db-restarts", 0), cluster);
            }
            if (args.integer("session-kills", 0) > 0) {
                model = FakeModel.start(0, Duration.ofMillis(args.integer("model-latency-ms", 1000)));
                suite.withSessionKills(args.integer("session-kills", 0), model);
            }
            findings = suite.run();
            findings.details().forEach(d -> log("  %s", d));
        } finally {
            if (cluster != null) {
                cluster.close();
            }
            if (model != null) {
                model.close();
            }
        }
        System.exit(findings.clean() ? 0 : 1);
    }

    /** RingZero's Mosquitto stopped (SIGTERM, as an upgrade would) and started again on its state. */
    static Runnable mosquittoRestart(Path repo, Path state, int port, String servicePassword) {
        return () -> {
            try {
                script(repo, Map.of(), "mqtt-broker/stop.sh", state.toString());
                for (int i = 0; i < 100 && listening(port); i++) {
                    Thread.sleep(50);
                }
                script(repo, Map.of("RINGZERO_MQTT_SERVICE_PASSWORD", servicePassword), "mqtt-broker/start.sh",
                        state.toString(), String.valueOf(port));
            } catch (Exception e) {
                throw new IllegalStateException("restarting the broker", e);
            }
        };
    }

    static void script(Path repo, Map<String, String> env, String script, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(repo.resolve(script).toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().putAll(env);
        int status = builder.start().waitFor();
        if (status != 0) {
            throw new IllegalStateException(script + " exited with " + status);
        }
    }

    private static boolean listening(int port) {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    static Plan plan(Args args) {
        String shape = args.text("shape", "default");
        int mqttPort = args.integer("mqtt-port", 18910);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("RINGZERO_MQTT_PORT", String.valueOf(mqttPort));
        env.put("RINGZERO_ADMIN_PASSWORD", "fault-admin-" + UUID.randomUUID());
        if (shape.equals("production")) {
            env.put("SPRING_PROFILES_ACTIVE", "postgres,mosquitto");
            // the profile's 3,000 events are rehearsed at every start, llm sessions only 100 of its
            // 2,500: enough to have every start rehearse them (and lose nothing), not 40 s more a kill
            env.put("RINGZERO_REHEARSAL_LLM_SESSIONS", "100");
            env.put("RINGZERO_DB_URL", args.required("jdbc"));
            env.put("RINGZERO_MQTT_SERVICE_PASSWORD", args.required("mqtt-service-password"));
        } else if (!shape.equals("default")) {
            throw new IllegalArgumentException("--shape is default or production");
        }
        return new Plan(shape, Path.of(args.required("jar")), Path.of(args.required("data-dir")),
                args.integer("http-port", 18900), env, args.longValue("seed", System.currentTimeMillis()),
                args.integer("gadgets", 6), args.number("rate", 12), args.integer("kills", 2),
                args.integer("gate-kills", 3), args.integer("nodes", 1), args.integer("load-seconds", 0));
    }

    /**
     * Which node a kill hits: with one node, always it, and no number drawn (a seed replays the
     * kills' moments of a run from before the cluster); with several, one at seeded random.
     */
    static int victim(Random random, int nodes) {
        return nodes == 1 ? 0 : random.nextInt(nodes);
    }

    /**
     * How long after the last (re)start the next kill comes: 3 to 10 s; with a stretch of load of
     * {@code loadSeconds}, 3 s to half the stretch shared among the kills, a moment anywhere in it.
     */
    static long killAfterMillis(Random random, int loadSeconds, int kills) {
        if (loadSeconds <= 0) {
            return 3_000 + random.nextInt(7_000);
        }
        return 3_000 + random.nextInt(Math.max(1, loadSeconds * 1_000 / 2 / Math.max(1, kills)));
    }

    Findings run() throws Exception {
        log("%s shape%s, seed %d (rerun with --seed %d)", plan.shape(), plan.nodes() == 1 ? ""
                : ", " + plan.nodes() + " nodes", plan.seed(), plan.seed());
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(4, daemon("boards"));
        List<DeskBot> boards = new ArrayList<>();
        Rover rover = null;
        Map<String, String> environment = new LinkedHashMap<>();
        if (model != null) {
            environment.put("RINGZERO_LLM_BASE_URL", model.baseUrl());
            environment.put("RINGZERO_LLM_MODEL", FakeModel.MODEL);
        }
        DeskBot sessionBoard = null;
        try (Nodes nodes = new Nodes(plan, environment)) {
            for (int n = 0; n < nodes.size(); n++) {
                PlatformProcess platform = nodes.get(n);
                log("%s healthy after %s (log %s)", nodes.size() == 1 ? "platform" : "node " + (n + 1),
                        platform.start(Duration.ofMinutes(4)), platform.log());
            }
            if (nodes.size() > 1) {
                log("partitions: %s", partitions());
            }
            Rest admin = Rest.atAny(nodes.baseUrls()).basic("admin", plan.environment().get("RINGZERO_ADMIN_PASSWORD"));
            String suffix = UUID.randomUUID().toString().substring(0, 6);
            JsonNode account = admin.post("/api/v1/admin/accounts", "{\"id\":\"fault-" + suffix
                    + "\",\"password\":\"fault-" + suffix + "-password\",\"displayName\":\"Fault suite\"}")
                    .expect(201, "creating the owner").json();
            Rest owner = Rest.atAny(nodes.baseUrls()).bearer(account.get("token").asText());

            List<String> agents = new ArrayList<>();
            for (int i = 0; i < plan.gadgets(); i++) {
                LinkConfig link = pair(owner, "fault-" + suffix + "-g" + i);
                DeskBot bot = new DeskBot(link, scheduler);
                bot.setAmbientImu(false);
                String gadget = link.gadgetId();
                acknowledged.put(gadget, ConcurrentHashMap.newKeySet());
                bot.onEventAcknowledged(id -> {
                    if (sent.containsKey(id)) {
                        acknowledged.get(gadget).add(id);
                    }
                });
                bot.onInvocation(inv -> seen.add(new Seen(gadget, inv)));
                bot.start();
                boards.add(bot);
                if (!bot.awaitRegistered(Duration.ofSeconds(60))) {
                    throw new IllegalStateException(gadget + " did not register");
                }
                agents.add(owner.post("/api/v1/gadget-agents", agent(gadget, i)).expect(201, "creating agent " + i)
                        .json().get("id").asText());
            }
            LinkConfig roverLink = pair(owner, "fault-" + suffix + "-rover");
            rover = new Rover(roverLink, scheduler);
            rover.start();
            if (!rover.awaitRegistered(Duration.ofSeconds(60))) {
                throw new IllegalStateException("the rover did not register");
            }
            String roverAgent = owner.post("/api/v1/gadget-agents", gatedDrive(roverLink.gadgetId()))
                    .expect(201, "creating the gated rover agent").json().get("id").asText();
            String sessionAgent = null;
            List<ReceivedInvocation> sessionSeen = new CopyOnWriteArrayList<>();
            if (sessionKills > 0) {
                LinkConfig sessionLink = pair(owner, "fault-" + suffix + "-llm");
                sessionBoard = new DeskBot(sessionLink, scheduler);
                sessionBoard.setAmbientImu(false);
                sessionBoard.onInvocation(sessionSeen::add);
                sessionBoard.start();
                if (!sessionBoard.awaitRegistered(Duration.ofSeconds(60))) {
                    throw new IllegalStateException("the llm session's board did not register");
                }
                sessionAgent = owner.post("/api/v1/gadget-agents", session(sessionLink.gadgetId()))
                        .expect(201, "creating the llm agent").json().get("id").asText();
            }

            // ---- load, with kills at seeded random moments, each followed by a restart on the same data
            AtomicBoolean loading = new AtomicBoolean(true);
            AtomicInteger sentSoFar = new AtomicInteger();
            Thread load = new Thread(() -> load(boards, loading, sentSoFar), "load");
            long loadStart = System.nanoTime();
            load.start();
            long lastRestart = loadStart;
            for (int k = 0; k < plan.kills(); k++) {
                long after = killAfterMillis(random, plan.loadSeconds(), plan.kills());
                Thread.sleep(after);
                int victim = victim(random, nodes.size());
                nodes.get(victim).kill();
                long killed = System.nanoTime();
                kills++;
                log("SIGKILL %d of %d%s, %d ms after the last (re)start's load resumed; %d events sent so far", k + 1,
                        plan.kills(), nodes.size() == 1 ? "" : " to node " + (victim + 1), after, sentSoFar.get());
                if (nodes.size() == 1) {
                    log("restarted, healthy after %s", nodes.get(victim).start(Duration.ofMinutes(4)));
                } else {
                    restartWatchingPartitions(nodes, victim, killed);
                }
                lastRestart = System.nanoTime();
                if (nodes.size() > 1) {
                    awaitShare(victim, killed);
                }
            }
            for (int k = 0; k < brokerRestarts; k++) {
                long after = 3_000 + random.nextInt(5_000);
                Thread.sleep(after);
                long t0 = System.nanoTime();
                brokerRestart.run();
                log("broker restarted (%d of %d), %d ms into this stretch of load, in %d ms; %d events sent so far",
                        k + 1, brokerRestarts, after, (System.nanoTime() - t0) / 1_000_000, sentSoFar.get());
            }
            if (plan.loadSeconds() > 0) {
                // the whole stretch, and at least 15 s after the last restart: the restarted node takes
                // its partitions back while the load goes on
                long until = Math.max(loadStart + plan.loadSeconds() * 1_000_000_000L,
                        lastRestart + 15_000_000_000L);
                Thread.sleep(Math.max(0, (until - System.nanoTime()) / 1_000_000));
            } else {
                Thread.sleep(3_000 + random.nextInt(3_000));
            }
            loading.set(false);
            load.join();
            log("load over: %d events sent in %d s", sentSoFar.get(), (System.nanoTime() - loadStart) / 1_000_000_000L);

            // ---- issue 26: a gate approved for a drive, killed between the approval and the rover's answer
            List<String[]> gates = new ArrayList<>();
            for (int k = 0; k < plan.gateKills(); k++) {
                gateTry(nodes, owner, roverAgent, rover, true, gates);
            }

            // ---- issue 18: an llm session killed mid-way (while its model thinks, around its command)
            for (int k = 0; k < sessionKills; k++) {
                sessionTry(nodes.get(0), owner, sessionAgent, sessionSeen);
            }

            // ---- PostgreSQL restarted under load, and no kill after it: the platform recovers by itself
            if (databaseRestarts > 0) {
                databaseOutages(nodes.get(0), owner, boards, agents, sentSoFar);
                // a gate filed after the outages: the job executor and the gate path work again
                gateTry(nodes, owner, roverAgent, rover, false, gates);
            }

            // ---- drain: every run ends by its deadline; boards' outboxes empty
            log("draining up to %d s", MAX_RUN_SECONDS + 40);
            long drainUntil = System.nanoTime() + (MAX_RUN_SECONDS + 40) * 1_000_000_000L;
            while (System.nanoTime() < drainUntil && activeRuns(owner, agents, roverAgent) > 0) {
                Thread.sleep(1_000);
            }
            Thread.sleep(2_000);
            Findings findings = judge(owner, agents, roverAgent, gates, rover,
                    nodes.size() == 1 ? "" : partitions());
            log("%s", findings.summary());
            for (int n = 0; n < nodes.size(); n++) {
                String which = nodes.size() == 1 ? "the platform" : "node " + (n + 1);
                Duration stopped = nodes.get(n).stop(Duration.ofSeconds(60));
                log("SIGTERM: %s exited %s", which, stopped == null ? "NOT within 60 s" : "after " + stopped);
                if (stopped == null) {
                    details.add(which + " did not exit within 60 s of SIGTERM");
                }
            }
            return findings;
        } finally {
            boards.forEach(DeskBot::kill);
            if (rover != null) {
                rover.kill();
            }
            if (sessionBoard != null) {
                sessionBoard.kill();
            }
            scheduler.shutdownNow();
        }
    }

    /**
     * One llm session, killed at a seeded moment: the run is started, the platform killed somewhere
     * in the session's two model turns (the fake model's latency each) and started again, and the
     * run awaited. What the board received from then on until the run ended is this run's doing: at
     * most one execution of the model's one command, each named by the run.
     */
    private void sessionTry(PlatformProcess platform, Rest owner, String agent, List<ReceivedInvocation> board)
            throws Exception {
        int before = board.size();
        String runId = owner.post("/api/v1/gadget-agents/" + agent + "/runs", "{}")
                .expect(202, "starting an llm run").json().path("runId").asText();
        long span = 2 * model.latency().toMillis() + 500;
        long after = random.nextInt((int) span);
        Thread.sleep(after);
        long turnsBefore = model.turns();
        platform.kill();
        kills++;
        sessionTries++;
        log("llm run %s: SIGKILL %d ms into the session (%d model turn(s) answered so far in all)", runId, after,
                turnsBefore);
        log("restarted, healthy after %s", platform.start(Duration.ofMinutes(4)));
        long until = System.nanoTime() + (SESSION_MAX_RUN_SECONDS + 30) * 1_000_000_000L;
        JsonNode run = owner.get("/api/v1/runs/" + runId).json();
        while (ACTIVE.contains(run.path("status").asText()) && System.nanoTime() < until) {
            Thread.sleep(250);
            run = owner.get("/api/v1/runs/" + runId).json();
        }
        Thread.sleep(1_000); // an answer's last retry, if any, reaches the board
        String status = run.path("status").asText();
        if (ACTIVE.contains(status)) {
            sessionRunsActive++;
            details.add("llm run " + runId + " is still " + status + " after its deadline");
        }
        Map<String, String> named = invocations(owner, runId);
        List<ReceivedInvocation> received = List.copyOf(board.subList(before, board.size()));
        long executed = received.stream().filter(ReceivedInvocation::executed).count();
        if (executed > 1) {
            sessionEffectsTwice++;
            details.add("llm run " + runId + ": the board executed its command " + executed + " times");
        }
        for (ReceivedInvocation invocation : received) {
            if (!named.containsKey(invocation.id())) {
                sessionInvocationsUnnamed++;
                details.add("invocation " + invocation.id() + " reached the llm board but run " + runId
                        + " does not name it");
            }
        }
        List<String> actions = new ArrayList<>();
        for (JsonNode action : run.path("actions")) {
            actions.add(action.path("command").asText() + " " + action.path("outcome").asText("-") + " "
                    + action.path("errorCode").asText(""));
        }
        List<String> turns = new ArrayList<>();
        for (JsonNode turn : run.at("/session/turns")) {
            turns.add(turn.path("status").asText(turn.toString()));
        }
        log("llm run %s ended %s (%s); actions %s, turns %s; the board received %d command(s), executed %d", runId,
                status, run.path("reason").asText(""), actions, turns, received.size(), executed);
    }

    /**
     * One gated run of the rover's agent: its gate approved and, if {@code kill}, the platform killed
     * somewhere between the approval and the rover's answer (the drive lasts 1.5 s) and started again.
     * Adds {gate, run, drives the rover executed for it} to {@code gates}, one gate at a time: what
     * the rover executed from this approval until the gate ended is this gate's doing.
     */
    private void gateTry(Nodes nodes, Rest owner, String roverAgent, Rover rover, boolean kill,
            List<String[]> gates) throws Exception {
        // a try right after a restart may find the rover still reconnecting (on the zero-setup
        // default its broker restarted with the platform): the drive would be refused offline,
        // honestly, and no gate filed. This try is about a gate across a kill, so it waits for the
        // rover to be back first, as an owner would
        long onlineBy = System.nanoTime() + ROVER_ONLINE_TIMEOUT.toNanos();
        while (!owner.get("/api/v1/gadgets/" + rover.gadgetId()).json().path("online").asBoolean(false)
                && System.nanoTime() < onlineBy) {
            Thread.sleep(250);
        }
        String runId = owner.post("/api/v1/gadget-agents/" + roverAgent + "/runs", "{}")
                .expect(202, "starting a gated run").json().path("runId").asText();
        String gateId = LoadBench.awaitGate(owner, runId, GATE_FILED_TIMEOUT);
        if (gateId == null) {
            // say what became of the run instead, so that a red suite names its cause
            Rest.Response run = owner.get("/api/v1/runs/" + runId);
            details.add("no pending gate for gated run " + runId + " within " + GATE_FILED_TIMEOUT.toSeconds()
                    + " s; the run answers " + run.status() + " " + run.body());
            log("%s", details.get(details.size() - 1));
            return;
        }
        int drivesBefore = rover.invocations().size();
        Rest.Response approved = owner.post("/api/v1/gates/" + gateId + "/approve", "{}");
        if (approved.status() / 100 != 2) {
            throw new IllegalStateException("approving gate " + gateId + " answered " + approved.status());
        }
        if (kill) {
            long after = random.nextInt(1_700);
            Thread.sleep(after);
            int victim = victim(random, nodes.size());
            nodes.get(victim).kill();
            kills++;
            log("gate %s approved; SIGKILL %d ms later%s (rover drove %d time(s) so far)", gateId, after,
                    nodes.size() == 1 ? "" : " to node " + (victim + 1), rover.motionLog().size());
            log("restarted, healthy after %s", nodes.get(victim).start(Duration.ofMinutes(4)));
            String state = owner.get("/api/v1/gates/" + gateId).json().path("state").asText();
            if (state.equals("pending")) {
                details.add("gate " + gateId + " is " + state + " again after the restart");
            }
        }
        long until = System.nanoTime() + 40_000_000_000L;
        JsonNode gate = owner.get("/api/v1/gates/" + gateId).json();
        while (!GATE_ENDS.contains(gate.path("state").asText()) && System.nanoTime() < until) {
            Thread.sleep(250);
            gate = owner.get("/api/v1/gates/" + gateId).json();
        }
        long executed = rover.invocations().stream().skip(drivesBefore).filter(ReceivedInvocation::executed).count();
        gates.add(new String[] {gateId, runId, String.valueOf(executed)});
        log("gate %s%s ended %s (%s); the rover executed %d drive(s) for it", gateId, kill ? "" : " (no kill)",
                gate.path("state").asText(), gate.path("reason").asText(gate.toString()), executed);
    }

    /**
     * A stretch of load in which the platform's PostgreSQL is restarted {@code databaseRestarts}
     * times: alternately {@code pg_ctl restart -m fast} (every connection ended, the server back
     * within a second) and a stop for 3 to 6 s (every connection attempt refused) and a start. After
     * each, the platform must be healthy and route an event sent after the server was back, within
     * {@link #RECOVERY_TIMEOUT}; the load runs on a few seconds after the last.
     */
    private void databaseOutages(PlatformProcess platform, Rest owner, List<DeskBot> boards, List<String> agents,
            AtomicInteger sentSoFar) throws Exception {
        AtomicBoolean loading = new AtomicBoolean(true);
        Thread load = new Thread(() -> load(boards, loading, sentSoFar), "load");
        load.start();
        try {
            for (int k = 0; k < databaseRestarts; k++) {
                long after = 3_000 + random.nextInt(3_000);
                Thread.sleep(after);
                long t0 = System.nanoTime();
                String how;
                if (k % 2 == 0) {
                    database.restartFast();
                    how = "pg_ctl restart -m fast";
                } else {
                    database.stop();
                    long pause = 3_000 + random.nextInt(3_000);
                    Thread.sleep(pause);
                    database.startAgain();
                    how = "stopped for " + pause + " ms";
                }
                long back = System.nanoTime();
                log("PostgreSQL restarted (%d of %d: %s), %d ms into this stretch of load, back after %d ms; %d "
                        + "events sent so far", k + 1, databaseRestarts, how, after, (back - t0) / 1_000_000,
                        sentSoFar.get());
                awaitRecovery(platform, owner, agents, k + 1, how, back);
            }
            Thread.sleep(3_000 + random.nextInt(3_000));
        } finally {
            loading.set(false);
            load.join();
        }
        log("load over: %d events sent", sentSoFar.get());
    }

    /**
     * Waits until the platform says it is healthy and has a run for an event a board sent after the
     * database was {@code back}; counts a restart after which it did neither within the timeout.
     */
    private void awaitRecovery(PlatformProcess platform, Rest owner, List<String> agents, int restart, String how,
            long back) throws InterruptedException {
        Rest anonymous = Rest.at(platform.baseUrl());
        long deadline = back + RECOVERY_TIMEOUT.toNanos();
        long healthy = -1;
        long routed = -1;
        while ((healthy < 0 || routed < 0) && System.nanoTime() < deadline) {
            try {
                if (healthy < 0) {
                    Rest.Response health = anonymous.get("/actuator/health");
                    if (health.status() == 200 && health.body().contains("\"status\":\"UP\"")) {
                        healthy = System.nanoTime();
                    }
                }
                if (routed < 0) {
                    for (String agent : agents) {
                        Rest.Response runs = owner.get("/api/v1/gadget-agents/" + agent + "/runs?limit=20");
                        if (runs.status() != 200) {
                            break;
                        }
                        for (JsonNode run : runs.json()) {
                            long[] sentAt = sent.get(run.at("/trigger/event/id").asText(""));
                            if (sentAt != null && sentAt[1] > back) {
                                routed = System.nanoTime();
                            }
                        }
                    }
                }
            } catch (IllegalStateException notAnswering) {
                // a request that failed or timed out: asked again
            }
            Thread.sleep(250);
        }
        String figures = String.format("%d (%s): healthy after %s, an event sent after it routed after %s", restart,
                how, healthy < 0 ? "NOT within " + RECOVERY_TIMEOUT.toSeconds() + " s" : (healthy - back) / 1_000_000
                        + " ms", routed < 0 ? "NOT within " + RECOVERY_TIMEOUT.toSeconds() + " s"
                        : (routed - back) / 1_000_000 + " ms");
        log("database restart %s", figures);
        recoveries.add(restart + ": healthy " + (healthy < 0 ? "never" : (healthy - back) / 1_000_000 + " ms")
                + ", routing " + (routed < 0 ? "never" : (routed - back) / 1_000_000 + " ms"));
        if (healthy < 0 || routed < 0) {
            notRecovered++;
            details.add("database restart " + figures + "; see " + platform.log());
        }
    }

    /** Open loop: {@code rate} events a second, round-robin over the boards; unique data (the 3 s duplicate check). */
    private void load(List<DeskBot> boards, AtomicBoolean loading, AtomicInteger sentSoFar) {
        long interval = (long) (1e9 / plan.rate());
        long next = System.nanoTime();
        int k = sentSoFar.get();
        while (loading.get()) {
            DeskBot board = boards.get(k % boards.size());
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("strength", "hard");
            data.put("seq", k);
            String id = UUID.randomUUID().toString();
            sent.put(id, new long[] {k % boards.size(), System.nanoTime()});
            board.emitEvent(id, "shaken", data);
            sentSoFar.incrementAndGet();
            k++;
            next += interval;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private Findings judge(Rest owner, List<String> agents, String roverAgent, List<String[]> gates, Rover rover,
            String partitions) {
        long acked = 0;
        long routed = 0;
        long shed = 0;
        long withoutDecision = 0;
        long runsActive = 0;
        Map<String, Map<String, List<String>>> runsByEvent = new LinkedHashMap<>(); // gadget -> event -> runs
        int g = 0;
        for (String gadget : acknowledged.keySet().stream().sorted(java.util.Comparator
                .comparingInt(id -> Integer.parseInt(id.substring(id.lastIndexOf('g') + 1)))).toList()) {
            String agent = agents.get(g++);
            Map<String, List<String>> byEvent = new LinkedHashMap<>();
            JsonNode runs = owner.get("/api/v1/gadget-agents/" + agent + "/runs?limit=500").json();
            JsonNode decisions = owner.get("/api/v1/gadget-agents/" + agent + "/decisions?limit=1000").json();
            if (runs.size() == 500 || decisions.size() == 1000) {
                // the API's page limits: what lies beyond would count as lost
                throw new IllegalStateException(gadget + " has more runs or decisions than the judge reads (500, "
                        + "1000): lower --rate or shorten the stretches of load");
            }
            for (JsonNode run : runs) {
                String event = run.at("/trigger/event/id").asText("");
                byEvent.computeIfAbsent(event, e -> new ArrayList<>()).add(run.path("id").asText());
                if (ACTIVE.contains(run.path("status").asText()) && runsActive++ < 10) {
                    details.add("run " + run.path("id").asText() + " of " + gadget + " is still "
                            + run.path("status").asText() + " (created " + run.path("createdAt").asText() + ", started "
                            + run.path("startedAt").asText() + ")");
                }
            }
            runsByEvent.put(gadget, byEvent);
            long shedHere = 0;
            for (JsonNode decision : decisions) {
                if (decision.path("reason").asText().startsWith("shed")) {
                    shedHere++;
                }
            }
            Set<String> ackedHere = acknowledged.get(gadget);
            long missing = ackedHere.stream().filter(e -> !byEvent.containsKey(e)).count();
            acked += ackedHere.size();
            routed += ackedHere.size() - missing;
            shed += shedHere;
            // a shed event has a decision and no run; what the shed decisions do not cover has neither
            long lost = Math.max(0, missing - shedHere);
            if (lost > 0) {
                details.add(gadget + ": " + lost + " acknowledged event(s) without run or decision, e.g. "
                        + ackedHere.stream().filter(e -> !byEvent.containsKey(e)).limit(3).toList());
            }
            withoutDecision += lost;
        }

        // every command a board received is named by a run of its event; one execution per (gadget, event)
        // (and, not counted, since an answer may be lost at the board's side, as over a broker restart:
        // a command the board carried out whose run records it unknown, its answer lost on the way)
        Map<String, Map<String, String>> invocationsOfRun = new ConcurrentHashMap<>();
        Map<String, Integer> executions = new LinkedHashMap<>();
        long unnamed = 0;
        List<String> executedButUnknown = new ArrayList<>();
        for (Seen s : seen) {
            String event = eventOf(s.invocation());
            if (s.invocation().executed()) {
                executions.merge(s.gadget() + "/" + event, 1, Integer::sum);
            }
            List<String> runs = runsByEvent.getOrDefault(s.gadget(), Map.of()).getOrDefault(event, List.of());
            String outcome = runs.stream().map(run -> invocationsOfRun.computeIfAbsent(run, id -> invocations(owner, id))
                    .get(s.invocation().id())).filter(java.util.Objects::nonNull).findFirst().orElse(null);
            boolean named = outcome != null;
            if (named && s.invocation().executed() && outcome.equals("unknown")) {
                executedButUnknown.add(s.invocation().id() + " (" + s.gadget() + ", received "
                        + s.invocation().receivedAt() + ")");
            }
            if (!named && unnamed++ < 20) {
                details.add("invocation " + s.invocation().id() + " (" + s.invocation().command() + ", event " + event
                        + ") reached " + s.gadget() + " but no run names it; runs of that event: " + runs);
            }
        }
        long twice = executions.entrySet().stream().filter(e -> e.getValue() > 1).peek(e ->
                details.add("the effect of " + e.getKey() + " happened " + e.getValue() + " times")).count();

        // gates: never pending after their approval, ended, the rover drove at most once per gate
        long pending = 0;
        long notEnded = 0;
        long drovesTwice = 0;
        for (String[] gate : gates) {
            JsonNode view = owner.get("/api/v1/gates/" + gate[0]).json();
            String state = view.path("state").asText();
            if (state.equals("pending")) {
                pending++;
                details.add("gate " + gate[0] + " was approved and is pending again");
            } else if (!GATE_ENDS.contains(state)) {
                notEnded++;
                details.add("gate " + gate[0] + " did not end: " + state);
            }
            long drives = Long.parseLong(gate[2]);
            if (drives > 1) {
                drovesTwice++;
                details.add("gate " + gate[0] + ": the rover drove " + drives + " times");
            }
        }
        for (JsonNode run : owner.get("/api/v1/gadget-agents/" + roverAgent + "/runs?limit=500").json()) {
            if (ACTIVE.contains(run.path("status").asText())) {
                runsActive++;
                details.add("gated run " + run.path("id").asText() + " is still " + run.path("status").asText());
            }
        }
        if (!executedButUnknown.isEmpty()) {
            log("executed at a board but unknown in its run (not counted): %s", executedButUnknown.stream().limit(10)
                    .toList());
        }
        return new Findings(plan.shape(), plan.seed(), kills, acked, routed, shed, withoutDecision, seen.size(),
                unnamed + sessionInvocationsUnnamed, twice + sessionEffectsTwice, runsActive + sessionRunsActive,
                gates.size(), pending, notEnded, drovesTwice, databaseRestarts, notRecovered, List.copyOf(recoveries),
                executedButUnknown.size(), sessionTries, List.copyOf(details), partitions);
    }

    /**
     * Which node holds which partition now, from the leases in the database ({@code rz_partition_lease}):
     * e.g. {@code node 1 [0, 2, 4], node 2 [1, 3, 5]}; a lapsed lease counts as free.
     */
    private String partitions() {
        Map<String, List<Integer>> byNode = new java.util.TreeMap<>();
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(plan.environment().get("RINGZERO_DB_URL"),
                plan.environment().getOrDefault("RINGZERO_DB_USER", "postgres"),
                plan.environment().getOrDefault("RINGZERO_DB_PASSWORD", ""));
             java.sql.ResultSet rs = c.createStatement().executeQuery("select partition_no, case when expires_at > "
                     + "now() then node_id end from rz_partition_lease order by partition_no")) {
            while (rs.next()) {
                String node = rs.getString(2);
                byNode.computeIfAbsent(node == null ? "free" : "node " + node, n -> new ArrayList<>()).add(rs.getInt(1));
            }
        } catch (java.sql.SQLException e) {
            return "unknown (" + e.getMessage() + ")";
        }
        return byNode.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /**
     * Starts the killed node {@code victim} again and, while it starts, watches the leases: says
     * when the other nodes held every partition (the dead node's taken over, the lease's time after
     * its last renewal), or that they did not before it was back.
     */
    private void restartWatchingPartitions(Nodes nodes, int victim, long killed) throws Exception {
        java.util.concurrent.ExecutorService starter = Executors.newSingleThreadExecutor(daemon("restart"));
        try {
            java.util.concurrent.Future<Duration> restart = starter.submit(() ->
                    nodes.get(victim).start(Duration.ofMinutes(4)));
            String dead = "node " + (victim + 1) + " [";
            long takenOver = -1;
            String now = "";
            while (!restart.isDone()) {
                now = partitions();
                if (takenOver < 0 && !now.contains(dead) && !now.contains("free") && !now.startsWith("unknown")) {
                    takenOver = System.nanoTime();
                    log("the other node(s) hold every partition %d ms after the kill: %s",
                            (takenOver - killed) / 1_000_000, now);
                }
                Thread.sleep(200);
            }
            if (takenOver < 0) {
                log("node %d's partitions were not all taken over before it was back: %s", victim + 1, now);
            }
            log("restarted node %d, healthy after %s", victim + 1, restart.get());
        } finally {
            starter.shutdownNow();
        }
    }

    /**
     * After node {@code victim} is healthy again: until it holds a partition again (its fair share
     * comes back from the node that took it), up to 30 s; said in the log (the time since the kill)
     * and, if it never does, in the details.
     */
    private void awaitShare(int victim, long killed) throws InterruptedException {
        String node = "node " + (victim + 1) + " [";
        long deadline = System.nanoTime() + 30_000_000_000L;
        String now = partitions();
        while (!now.contains(node) && System.nanoTime() < deadline) {
            Thread.sleep(250);
            now = partitions();
        }
        if (now.contains(node)) {
            log("node %d holds partitions again, %d ms after the kill: %s", victim + 1,
                    (System.nanoTime() - killed) / 1_000_000, now);
        } else {
            log("node %d holds no partition 30 s after it was healthy: %s", victim + 1, now);
            details.add("node " + (victim + 1) + " held no partition 30 s after its restart: " + now);
        }
    }

    /** The invocations a run's actions name, each with the outcome the run records for it. */
    private static Map<String, String> invocations(Rest owner, String runId) {
        Map<String, String> outcomes = new ConcurrentHashMap<>();
        Rest.Response run = owner.get("/api/v1/runs/" + runId);
        if (run.status() == 200) {
            for (JsonNode action : run.json().path("actions")) {
                if (!action.path("invocationId").asText("").isEmpty()) {
                    outcomes.put(action.path("invocationId").asText(), action.path("outcome").asText(""));
                }
            }
        }
        return outcomes;
    }

    private static String eventOf(ReceivedInvocation invocation) {
        for (Object value : invocation.params().values()) {
            Matcher m = EVENT_ID.matcher(String.valueOf(value));
            if (m.find()) {
                return m.group();
            }
        }
        return "";
    }

    private static long activeRuns(Rest owner, List<String> agents, String roverAgent) {
        long active = 0;
        List<String> all = new ArrayList<>(agents);
        all.add(roverAgent);
        for (String agent : all) {
            for (JsonNode run : owner.get("/api/v1/gadget-agents/" + agent + "/runs?limit=500").json()) {
                if (ACTIVE.contains(run.path("status").asText())) {
                    active++;
                }
            }
        }
        return active;
    }

    /** Three kinds of agent, a third of the gadgets each: a queued sound, a queued and a parallel screen text. */
    static String agent(String gadget, int index) {
        String action = index % 3 == 0
                ? "{\"gadget\":\"%1$s\",\"command\":\"speaker.play_url\",\"params\":{\"url\":\"https://sounds.example/ding.mp3?event={{event.id}}\",\"duration_ms\":50}}"
                : "{\"gadget\":\"%1$s\",\"command\":\"display.show_text\",\"params\":{\"text\":\"{{event.id}}\"}}";
        String command = index % 3 == 0 ? "speaker.play_url" : "display.show_text";
        String concurrency = index % 3 == 2 ? "\"concurrency\":\"parallel\",\"maxParallel\":16"
                : "\"concurrency\":\"queued\"";
        return ("""
                {"apiVersion":"ringzero/v1","name":"fault %2$d","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"gadget.event","gadget":"%1$s","event":"shaken"}],
                 "actions":[%3$s],
                 "allow":{"commands":["%4$s"]},
                 "budget":{"runsPerHour":3600,"cooldownSeconds":0,"maxRunSeconds":%5$d},
                 %6$s}
                """).formatted(gadget, index, action.formatted(gadget), command, MAX_RUN_SECONDS, concurrency);
    }

    static String gatedDrive(String gadget) {
        return """
                {"apiVersion":"ringzero/v1","name":"fault gated drive","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"invoke"}],
                 "actions":[{"gadget":"%1$s","command":"chassis.drive","params":{"left":20,"right":20,"duration_ms":1500}}],
                 "allow":{"commands":["chassis.drive"],"physical":true},
                 "budget":{"runsPerHour":3600,"cooldownSeconds":0,"maxRunSeconds":%2$d},
                 "concurrency":"parallel","maxParallel":4}
                """.formatted(gadget, MAX_RUN_SECONDS);
    }

    /** An llm agent the fake model steers to one screen command: run it now, and it greets. */
    static String session(String gadget) {
        return """
                {"apiVersion":"ringzero/v1","name":"fault session","gadgets":["%1$s"],"kind":"llm",
                 "triggers":[{"kind":"invoke"}],
                 "instructions":"Greet the person on the desk bot's screen, once.",
                 "allow":{"commands":["display.show_text"]},
                 "budget":{"runsPerHour":3600,"cooldownSeconds":0,"maxRunSeconds":%2$d,"toolCallsPerRun":4,
                           "tokensPerRun":100000},
                 "concurrency":"parallel","maxParallel":4}
                """.formatted(gadget, SESSION_MAX_RUN_SECONDS);
    }

    private static LinkConfig pair(Rest owner, String id) {
        JsonNode paired = owner.post("/api/v1/gadgets", "{\"id\":\"" + id + "\",\"name\":\"" + id + "\"}")
                .expect(201, "pairing " + id).json();
        return new LinkConfig(paired.at("/mqtt/url").asText(), id, paired.at("/mqtt/password").asText());
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    static void log(String format, Object... values) {
        System.out.printf("[fault %s] %s%n", Instant.now().toString().substring(11, 23), String.format(format, values));
    }
}
