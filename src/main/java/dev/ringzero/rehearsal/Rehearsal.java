package dev.ringzero.rehearsal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.Batches;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.llm.LlmSessions;
import dev.ringzero.agents.runs.RunViews;
import dev.ringzero.dispatch.AnswerLane;
import dev.ringzero.gadgets.GadgetStore;
import dev.ringzero.router.EventAdmission;
import dev.ringzero.router.IncomingEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Rehearses the hot path before the node reports healthy, so its first real events do not pay
 * for the JIT compiling it (issue 25: a cold node served its first half-minute at p50 ~170 ms).
 * A round is one transaction that is always rolled back: a stand-in owner, paired gadget and
 * rules agent ("when shaken, show text"), then {@code ringzero.rehearsal.events-per-round} events
 * admitted and routed as the link's lane does (the run starts, the kernel decides, the command
 * is recorded), each followed by its device's answer settled as the answer lane does. Then, on a
 * node with a model configured, {@code ringzero.rehearsal.llm-sessions} llm sessions of a stand-in
 * agent (issue 18: the session path compiled while the rules load ran beside it), each invoked as
 * the REST API does and played as a model's turns are, with the answers of a server the
 * rehearsal writes (read by the model's client, never sent to it): a turn that shows text on the
 * gadget, its answer, a final turn. Nothing of it survives: no row commits, and what leaves the
 * node after a commit (the command to the device, the broker's acknowledgement, a turn handed to
 * the model's workers, the counters) never leaves. The engine only keeps its id blocks and its
 * in-memory activity counters.
 *
 * <p>The node reports {@code OUT_OF_SERVICE} (health component {@code rehearsal}) until the
 * rehearsal ends, so a load balancer or a start script waits for a warm node. It ends early, and
 * the node reports healthy all the same, if a round fails (a rehearsal never keeps a node out of
 * service) or the node stops. Events that arrive meanwhile are served as ever, by a colder node.
 */
@Component
public class Rehearsal implements HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(Rehearsal.class);

    /** Where a rehearsal stands. */
    sealed interface Stage permits Waiting, Rehearsing, Done {
    }

    record Waiting() implements Stage {
    }

    record Rehearsing(int eventsDone, int events, int sessionsDone, int sessions) implements Stage {
    }

    /**
     * Finished, or given up ({@code failure} says why): {@code events} rehearsed, of which
     * {@code succeeded} ran the whole path (their run succeeded once its answer was settled), and
     * {@code sessions} llm sessions, of which {@code sessionsSucceeded} ended with their final answer.
     */
    record Done(int events, int succeeded, int sessions, int sessionsSucceeded, Duration took, String failure)
            implements Stage {
    }

    private final TransactionTemplate transactions;
    private final JdbcClient jdbc;
    private final AgentService agents;
    private final GadgetStore gadgets;
    private final EventAdmission admission;
    private final AnswerLane answers;
    private final RunViews runs;
    private final LlmSessions llm;
    private final Batches batch;
    private final ObjectMapper json;
    private final Clock clock;
    private final int events;
    private final int perRound;
    private final int sessions;
    private final AtomicReference<Stage> stage = new AtomicReference<>(new Waiting());
    private volatile boolean stopping;

    Rehearsal(TransactionTemplate transactions, JdbcClient jdbc, AgentService agents, GadgetStore gadgets,
            EventAdmission admission, AnswerLane answers, RunViews runs, LlmSessions llm, Batches batch,
            ObjectMapper json, Clock clock, @Value("${ringzero.rehearsal.events:0}") int events,
            @Value("${ringzero.rehearsal.events-per-round:50}") int perRound,
            @Value("${ringzero.rehearsal.llm-sessions:0}") int sessions) {
        this.transactions = transactions;
        this.jdbc = jdbc;
        this.agents = agents;
        this.gadgets = gadgets;
        this.admission = admission;
        this.answers = answers;
        this.runs = runs;
        this.llm = llm;
        this.batch = batch;
        this.json = json;
        this.clock = clock;
        this.events = Math.max(0, events);
        this.perRound = Math.max(1, perRound);
        // without a model every llm run is refused at admission: nothing of the session path to rehearse
        this.sessions = llm.configured() ? Math.max(0, sessions) : 0;
        if (this.events == 0 && this.sessions == 0) {
            stage.set(new Done(0, 0, 0, 0, Duration.ZERO, null));
        }
    }

    /** Once the node is up (after the other start-up work), on a thread of its own. */
    @EventListener(ApplicationReadyEvent.class)
    @Order
    public void onReady() {
        if (stage.get() instanceof Waiting) {
            Thread thread = new Thread(this::rehearse, "rehearsal");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /**
     * Rehearses {@code ringzero.rehearsal.events} events, then {@code llm-sessions} sessions, round
     * after round; never throws.
     */
    void rehearse() {
        Instant started = clock.instant();
        int done = 0;
        int succeeded = 0;
        int sessionsDone = 0;
        int sessionsSucceeded = 0;
        String failure = null;
        stage.set(new Rehearsing(0, events, 0, sessions));
        try {
            while (done < events && !stopping) {
                int round = Math.min(perRound, events - done);
                succeeded += rehearseRound(round);
                done += round;
                stage.set(new Rehearsing(done, events, 0, sessions));
            }
            while (sessionsDone < sessions && !stopping) {
                int round = Math.min(perRound, sessions - sessionsDone);
                sessionsSucceeded += rehearseSessions(round);
                sessionsDone += round;
                stage.set(new Rehearsing(done, events, sessionsDone, sessions));
            }
        } catch (RuntimeException e) {
            failure = e.toString();
            log.warn("the rehearsal of the hot path stopped after {} events and {} llm sessions; the node serves "
                    + "unrehearsed: {}", done, sessionsDone, failure);
        }
        Duration took = Duration.between(started, clock.instant());
        stage.set(new Done(done, succeeded, sessionsDone, sessionsSucceeded, took, failure));
        if (succeeded < done || sessionsSucceeded < sessionsDone) {
            // the rehearsal warmed some other path (a denial, say): worth knowing, not worth failing for
            log.warn("of {} rehearsed events only {} ran their whole path, of {} llm sessions {}", done, succeeded,
                    sessionsDone, sessionsSucceeded);
        }
        log.info("rehearsed the hot path with {} events and {} llm sessions in {} ms", done, sessionsDone,
                took.toMillis());
    }

    /** One round of events: each admitted and routed as the link's lane does, then its command answered. */
    private int rehearseRound(int count) {
        return round(this::definition, count, (standIn, agentId, i) -> {
            IncomingEvent event = new IncomingEvent(standIn.gadgetId(), standIn.ownerId(), "rehearsal-" + i, "shaken",
                    json.createObjectNode().put("n", i), "mqtt", null);
            batch.run(List.of(event), admission::admitAndRouteHere, Rehearsal::failed);
            answerAll(standIn.gadgetId());
        });
    }

    /**
     * One round of llm sessions: each run invoked, its first turn answered with a command
     * (dispatched by the run, answered here), its second with the final answer.
     */
    private int rehearseSessions(int count) {
        return round(this::sessionDefinition, count, (standIn, agentId, i) -> {
            String runId = runs.invokeAtOnce(standIn.ownerId(), agentId, json.createObjectNode().put("n", i)).runId();
            // a run not asked (refused at admission, say) is left: the count of succeeded runs says so
            if (llm.rehearseTurn(runId, "display.show_text", json.createObjectNode().put("text", "rehearsal " + i))) {
                answerAll(standIn.gadgetId());
                llm.rehearseTurn(runId, null, null);
            }
        });
    }

    /** What a round does {@code count} times, with its stand-ins. */
    private interface Play {
        void play(StandIn standIn, String agentId, int i);
    }

    /**
     * A round: a stand-in owner and gadget, an agent of {@code definition} on it, then {@code play}
     * {@code count} times, in one transaction rolled back whatever happens in it. Returns the
     * agent's runs that succeeded.
     */
    private int round(java.util.function.Function<String, JsonNode> definition, int count, Play play) {
        return transactions.execute(status -> {
            status.setRollbackOnly();
            StandIn standIn = standIn();
            String agentId = agents.create(standIn.ownerId(), definition.apply(standIn.gadgetId())).agent().id();
            for (int i = 0; i < count; i++) {
                play.play(standIn, agentId, i);
            }
            return jdbc.sql("select count(*) from rz_run where agent_id = ? and status = 'succeeded'")
                    .param(agentId).query(Integer.class).single();
        });
    }

    /** Every command sent to the gadget and not answered yet, answered as the answer lane does. */
    private void answerAll(String gadgetId) {
        for (String invocationId : unanswered(gadgetId)) {
            batch.run(List.of(answer(invocationId)), answer -> answers.settleHere(gadgetId, answer), Rehearsal::failed);
        }
    }

    private static <T> void failed(T item, RuntimeException cause) {
        throw cause;
    }

    /** The stand-in owner and gadget (paired, registered) of one round. */
    private record StandIn(String ownerId, String gadgetId) {
    }

    private StandIn standIn() {
        String suffix = UUID.randomUUID().toString().substring(0, 12);
        String ownerId = "rehearsal-" + suffix;
        String gadgetId = "rehearsal-" + suffix;
        Instant now = clock.instant();
        // rows of their own, not the accounts' and pairing's services: those also create a login
        // in the engine's identity store and credentials on the broker, neither undone by a rollback
        jdbc.sql("insert into rz_account(id, display_name, role, created_at) values (?, ?, 'OWNER', ?)")
                .params(ownerId, ownerId, java.sql.Timestamp.from(now)).update();
        jdbc.sql("insert into rz_gadget(id, owner_id, name, credential_hash, paired, online, paired_at) "
                        + "values (?, ?, ?, ?, true, true, ?)")
                .params(gadgetId, ownerId, gadgetId, "0".repeat(64), java.sql.Timestamp.from(now)).update();
        gadgets.register(gadgetId, REGISTRATION, now);
        return new StandIn(ownerId, gadgetId);
    }

    private List<String> unanswered(String gadgetId) {
        return jdbc.sql("select id from rz_invocation where gadget_id = ? and outcome = 'sent'").param(gadgetId)
                .query(String.class).list();
    }

    /** The device's {@code link.result}: shown. */
    private JsonNode answer(String invocationId) {
        ObjectNode envelope = json.createObjectNode().put("method", "link.result").put("id", invocationId)
                .put("ok", true);
        envelope.putObject("payload").put("status", "shown");
        return envelope;
    }

    /** The benchmark's and the seeds' commonest agent: one command per event, no model. */
    private JsonNode definition(String gadgetId) {
        return parsed("""
                {"apiVersion":"ringzero/v1","name":"rehearsal","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"gadget.event","gadget":"%1$s","event":"shaken"}],
                 "actions":[{"gadget":"%1$s","command":"display.show_text","params":{"text":"{{event.id}}"}}],
                 "allow":{"commands":["display.show_text"]},
                 "budget":{"runsPerHour":3600,"cooldownSeconds":0,"maxRunSeconds":30},
                 "concurrency":"parallel","maxParallel":16}
                """.formatted(gadgetId));
    }

    /** An llm agent as the benchmark's sessions are: invoked, one command allowed, a few tool calls. */
    private JsonNode sessionDefinition(String gadgetId) {
        return parsed("""
                {"apiVersion":"ringzero/v1","name":"rehearsal session","gadgets":["%1$s"],"kind":"llm",
                 "triggers":[{"kind":"invoke"}],
                 "instructions":"Greet the person on the screen, once.",
                 "allow":{"commands":["display.show_text"]},
                 "budget":{"runsPerHour":3600,"cooldownSeconds":0,"maxRunSeconds":120,"toolCallsPerRun":4,
                           "tokensPerRun":100000},
                 "concurrency":"parallel","maxParallel":16}
                """.formatted(gadgetId));
    }

    /** A definition written here, which parses (a failure is a defect of this class). */
    private JsonNode parsed(String definition) {
        try {
            return json.readTree(definition);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final String REGISTRATION = """
            {"node_id":"rehearsal","display_name":"rehearsal","platform":"rehearsal","version":"1",
             "capabilities":{},
             "commands_v2":{"display.show_text":{"description":"shows a line of text",
               "required":{"text":{"type":"string","description":"the text"}},"optional":{},"timeout_ms":2000}},
             "events":[{"name":"shaken"}]}
            """;

    @jakarta.annotation.PreDestroy
    void stop() {
        stopping = true;
    }

    Stage stage() {
        return stage.get();
    }

    @Override
    public Health health() {
        Stage now = stage.get();
        if (now instanceof Done done) {
            Health.Builder up = Health.up().withDetail("events", done.events())
                    .withDetail("succeeded", done.succeeded()).withDetail("ms", done.took().toMillis());
            if (done.sessions() > 0) {
                up.withDetail("sessions", done.sessions()).withDetail("sessionsSucceeded", done.sessionsSucceeded());
            }
            return done.failure() == null ? up.build() : up.withDetail("stopped", done.failure()).build();
        }
        Health.Builder out = Health.outOfService();
        if (now instanceof Rehearsing rehearsing) {
            out.withDetail("events", rehearsing.eventsDone()).withDetail("of", rehearsing.events());
            if (rehearsing.sessions() > 0) {
                out.withDetail("sessions", rehearsing.sessionsDone()).withDetail("sessionsOf", rehearsing.sessions());
            }
        }
        return out.build();
    }
}
