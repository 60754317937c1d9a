package dev.ringzero.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.firmware.DeskBot;
import dev.ringzero.firmware.LinkConfig;

/**
 * The benchmark's llm scenario (issue 18): N {@code llm} sessions kept going at once against
 * {@link FakeModel}, each on a desk bot of its own and owned by an account of its own (its daily
 * tokens and runs apart from the rules load's). A session is "run it now" on its agent; the fake
 * model steers it to one screen command and a final answer, and the next run of that agent starts
 * as soon as the model has sent the final answer (the agent's instructions carry its number), so
 * nothing polls the platform and the sessions' own traffic is only what a session does.
 */
final class SessionLoad {

    private static final Pattern SESSION = Pattern.compile("\\[bench session (\\d+)\\]");

    private final FakeModel model;
    private final Rest owner;
    private final List<String> agents = new ArrayList<>();
    private final List<DeskBot> boards = new ArrayList<>();
    private final Semaphore[] ended;
    private final AtomicLong runsStarted = new AtomicLong();
    private final AtomicLong runsUnfinished = new AtomicLong();
    private final AtomicBoolean going = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();
    /** Over how long the sessions' first runs are spread; zero starts them all at once, in step. */
    private final Duration spread;

    private SessionLoad(FakeModel model, Rest owner, int sessions, Duration spread) {
        this.model = model;
        this.owner = owner;
        this.spread = spread;
        this.ended = new Semaphore[sessions];
        for (int i = 0; i < sessions; i++) {
            ended[i] = new Semaphore(0);
        }
        model.onFinalAnswer(request -> {
            Matcher m = SESSION.matcher(request);
            if (m.find()) {
                int k = Integer.parseInt(m.group(1));
                if (k < ended.length) {
                    ended[k].release();
                }
            }
        });
    }

    /**
     * An owner of its own, {@code sessions} boards and llm agents; the model must already listen.
     * With a {@code spread}, session k starts its first run k/sessions of it after the first: a
     * model of fixed latency keeps sessions started together in step, their turns arriving at the
     * platform at once, which people's sessions would not.
     */
    static SessionLoad create(Rest anonymous, Rest admin, String suffix, int sessions, Duration spread,
            FakeModel model, ScheduledExecutorService scheduler) {
        String ownerId = "bench-" + suffix + "-llm";
        JsonNode account = admin.post("/api/v1/admin/accounts", "{\"id\":\"" + ownerId + "\",\"password\":\"bench-"
                + suffix + "-llm-password\",\"displayName\":\"Benchmark sessions\"}")
                .expect(201, "creating the sessions' owner").json();
        SessionLoad load = new SessionLoad(model, anonymous.bearer(account.get("token").asText()), sessions, spread);
        for (int k = 0; k < sessions; k++) {
            String id = String.format("bench-%s-llm%03d", suffix, k);
            JsonNode paired = load.owner.post("/api/v1/gadgets", "{\"id\":\"" + id + "\",\"name\":\"" + id + "\"}")
                    .expect(201, "pairing " + id).json();
            DeskBot bot = new DeskBot(new LinkConfig(paired.at("/mqtt/url").asText(), id,
                    paired.at("/mqtt/password").asText()), scheduler);
            bot.setHistoryLimit(16);
            bot.setAmbientImu(false);
            bot.start();
            if (!bot.awaitRegistered(Duration.ofSeconds(60))) {
                throw new IllegalStateException(id + " did not register");
            }
            load.boards.add(bot);
            load.agents.add(load.owner.post("/api/v1/gadget-agents", agent(id, k))
                    .expect(201, "creating llm agent " + k).json().get("id").asText());
        }
        return load;
    }

    static String agent(String gadget, int k) {
        return """
                {"apiVersion":"ringzero/v1","name":"bench session %2$d","gadgets":["%1$s"],"kind":"llm",
                 "triggers":[{"kind":"invoke"}],
                 "instructions":"[bench session %2$d] Greet the person on the desk bot's screen, once.",
                 "allow":{"commands":["display.show_text"]},
                 "budget":{"runsPerHour":3600,"cooldownSeconds":0,"maxRunSeconds":120,"toolCallsPerRun":4,
                           "tokensPerRun":100000},
                 "concurrency":"parallel","maxParallel":2}
                """.formatted(gadget, k);
    }

    /**
     * Starts every session, spread over {@link #spread}; each runs again as soon as its previous
     * run's model said its last word.
     */
    void start() {
        going.set(true);
        for (int k = 0; k < agents.size(); k++) {
            int session = k;
            long delay = offset(k, agents.size(), spread);
            Thread thread = new Thread(() -> {
                sleep(delay);
                loop(session);
            }, "bench-session-" + k);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    private void loop(int k) {
        while (going.get()) {
            Rest.Response started = owner.post("/api/v1/gadget-agents/" + agents.get(k) + "/runs", "{}");
            if (started.status() != 202) {
                LoadBench.log("session %d: starting a run answered %d", k, started.status());
                sleep(1_000);
                continue;
            }
            runsStarted.incrementAndGet();
            try {
                if (!ended[k].tryAcquire(150, TimeUnit.SECONDS)) {
                    runsUnfinished.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            sleep(100); // the run's last steps after the final answer
        }
    }

    /** Stops starting runs and waits for the sessions in flight to end. */
    void stop() throws InterruptedException {
        going.set(false);
        for (Thread thread : threads) {
            thread.join(180_000);
        }
        threads.clear();
    }

    /** When session {@code k} of {@code sessions} starts its first run, in milliseconds after the first. */
    static long offset(int k, int sessions, Duration spread) {
        return spread.toMillis() * k / sessions;
    }

    long runsStarted() {
        return runsStarted.get();
    }

    long turns() {
        return model.turns();
    }

    /** What the sessions' runs ended as, from the platform's run history (up to 500 per agent). */
    ObjectNode report() {
        ObjectNode out = Rest.JSON.createObjectNode();
        out.put("sessions", agents.size());
        out.put("model_latency_ms", model.latency().toMillis());
        out.put("start_spread_ms", spread.toMillis());
        out.put("runs_started", runsStarted.get());
        out.put("runs_whose_final_answer_never_came", runsUnfinished.get());
        out.put("model_turns", model.turns());
        out.put("model_tool_calls", model.toolCalls());
        Map<String, Long> byStatus = new LinkedHashMap<>();
        for (String agent : agents) {
            for (JsonNode run : owner.get("/api/v1/gadget-agents/" + agent + "/runs?limit=500").json()) {
                byStatus.merge(run.path("status").asText(), 1L, Long::sum);
            }
        }
        ObjectNode statuses = out.putObject("runs_by_status");
        byStatus.forEach(statuses::put);
        return out;
    }

    void close() {
        boards.forEach(DeskBot::close);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
