package dev.ringzero.agents.llm;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.TriedAgain;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.AgentStore;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.agents.runs.DevicesFirst;
import dev.ringzero.agents.runs.GateDesk;
import dev.ringzero.agents.runs.RunStore;
import dev.ringzero.gadgets.RegisteredCommands;
import dev.ringzero.gates.Envelopes;
import dev.ringzero.gates.GateService;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.kernel.Subject;
import dev.ringzero.kernel.Verdict;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Plays model turns off the engine: on a worker thread of its own, holding no engine job and no
 * database connection while the model thinks. A turn is: rebuild the conversation from the record,
 * ask the model, record the reply, then hand each tool call to ring 0 — a platform tool the kernel
 * allows runs here, an intent becomes an envelope, a device command becomes a run action (the run
 * dispatches it through the kernel and the dispatcher, as a rules action) — and wake the run.
 * Every step is recorded before the next, so a restart resumes a turn where it stood
 * ({@link #resume}) and never sends anything twice.
 */
final class ModelTurns {

    private static final Logger log = LoggerFactory.getLogger(ModelTurns.class);
    /** What recording a reply may take on a busy node: a reply waits for a slot until its deadline less this. */
    private static final Duration RECORDING = Duration.ofSeconds(1);

    private final Model model;
    private final LlmSettings settings;
    private final SessionStore store;
    private final RunStore runs;
    private final AgentService agents;
    private final AgentStore agentStore;
    private final RegisteredCommands registered;
    private final PolicyKernel kernel;
    private final Envelopes envelopes;
    private final GateDesk gates;
    private final GateService briefings;
    private final LocalTools tools;
    private final SessionWake wake;
    private final DevicesFirst devicesFirst;
    private final TransactionTemplate transactions;
    private final ExecutorService workers;
    private final ObjectMapper json;
    private final Clock clock;

    ModelTurns(Model model, LlmSettings settings, SessionStore store, RunStore runs, AgentService agents,
            AgentStore agentStore, RegisteredCommands registered, PolicyKernel kernel, Envelopes envelopes,
            GateDesk gates, GateService briefings, LocalTools tools, SessionWake wake, DevicesFirst devicesFirst,
            TransactionTemplate transactions, ExecutorService workers, ObjectMapper json, Clock clock) {
        this.devicesFirst = devicesFirst;
        this.model = model;
        this.settings = settings;
        this.store = store;
        this.runs = runs;
        this.agents = agents;
        this.agentStore = agentStore;
        this.registered = registered;
        this.kernel = kernel;
        this.envelopes = envelopes;
        this.gates = gates;
        this.briefings = briefings;
        this.tools = tools;
        this.wake = wake;
        this.transactions = transactions;
        this.workers = workers;
        this.json = json;
        this.clock = clock;
    }

    /**
     * Plays an asked turn on a worker (after the transaction that asked it committed), with the
     * model call read in that transaction; null: read it here first. {@code replyBy} is the turn's
     * deadline, null where it is not known (a turn resumed after a restart).
     */
    void play(String runId, int turn, ModelCall prepared, Instant replyBy) {
        submit(() -> ask(runId, turn, prepared, replyBy));
    }

    /**
     * After a restart: asks an asked turn again (a model call has no effect), finishes a replied
     * one, and wakes the run again for a last turn already ready or failed (a node of an earlier
     * version recorded a turn and woke its run in two transactions, and may have stopped between
     * them; a wake nobody waits for is harmless).
     */
    void resume(SessionStore.Turn turn) {
        if (turn.status() == SessionStore.TurnStatus.ASKED) {
            play(turn.runId(), turn.turn(), null, null);
        } else if (turn.status() == SessionStore.TurnStatus.REPLIED) {
            submit(() -> handle(turn.runId(), turn.turn()));
        } else {
            submit(() -> once(turn.runId(), () -> wakeIfLatest(turn.runId(), turn.turn())));
        }
    }

    private void submit(Runnable work) {
        try {
            workers.execute(() -> {
                try {
                    work.run();
                } catch (RuntimeException e) {
                    // the turn's deadline ends the run honestly; nothing here may kill the worker
                    log.warn("model turn failed", e);
                }
            });
        } catch (RejectedExecutionException e) {
            log.warn("model turn not played: the node is stopping (the turn's deadline ends it)");
        }
    }

    /**
     * Runs {@code work} in a transaction, again if it fails (e.g. the engine's optimistic lock, when
     * the deadline sweep or a cancellation moved the run's instance at the same moment): every
     * step of the work is conditional on the record, so a second try does what is still to do.
     * After the last try the turn's deadline ends the run, whatever happened here.
     */
    private void once(String runId, Runnable work) {
        TriedAgain.inTransaction(transactions, "a turn of run " + runId, work);
    }

    private void ask(String runId, int turn, ModelCall prepared, Instant replyBy) {
        // the conversation is read from the record in one transaction, which ends before the model
        // is asked, so no connection is held while it thinks (the asking step's transaction read
        // it already, unless this is a turn resumed after a restart)
        ModelCall call = prepared != null ? prepared : transactions.execute(status -> prepare(runId));
        if (call == null) {
            return;
        }
        long started = System.nanoTime();
        long[] arrived = {0};
        // The reply is read, recorded and acted on in a slot of DevicesFirst, taken as its head
        // arrives: fifty sessions' replies arriving together are read one slot at a time, after
        // this node's device events, instead of on every llm worker at once (docs/llm-agents.md).
        // It waits for the slot as long as its turn's deadline allows: one that went on without
        // a slot after a fixed yield did so in exactly the bursts the slot is for (thirtieth series).
        try (DevicesFirst.Slot slot = devicesFirst.slot(settings.yieldToEvents(), patience(replyBy))) {
            ModelReply reply = model.ask(call, () -> {
                arrived[0] = System.nanoTime();
                slot.take();
            });
            // the model's latency is the wait for its reply, not the wait for the slot
            int latencyMs = (int) (((arrived[0] != 0 ? arrived[0] : System.nanoTime()) - started) / 1_000_000);
            if (reply instanceof ModelReply.Failed failed) {
                fail(runId, turn, failed.code(), failed.message());
                return;
            }
            ModelReply.Answered answered = (ModelReply.Answered) reply;
            afterTheDevices(() -> record(runId, turn, answered, latencyMs));
        }
    }

    private Duration patience(Instant replyBy) {
        return patience(clock.instant(), replyBy, settings.yieldToEvents());
    }

    /**
     * How long a reply may wait for a slot: until its turn's deadline {@code replyBy}, less what
     * recording it may take; the {@code yield} at least, and only the yield where the deadline is
     * not known (null).
     */
    static Duration patience(Instant now, Instant replyBy, Duration yield) {
        if (replyBy == null) {
            return yield;
        }
        Duration left = Duration.between(now, replyBy).minus(RECORDING);
        return left.compareTo(yield) > 0 ? left : yield;
    }

    /**
     * Device reactions first: a reply is recorded once this node's device events are routed, one
     * reply at a time (with the runs clients start), or when {@code ringzero.llm.yield-to-events}
     * has passed whatever the backlog (within the reply's grace, so the wait never costs a turn its
     * deadline). In the slot its reading took, if it took one ({@link #ask}).
     */
    private void afterTheDevices(Runnable work) {
        devicesFirst.after(settings.yieldToEvents(), () -> {
            work.run();
            return null;
        });
    }

    private void record(String runId, int turn, ModelReply.Answered answered, int latencyMs) {
        // Most replies are settled on the record alone (device commands become run actions, a
        // final answer ends the session): the reply, its calls and the wake are one transaction.
        // A reply that also calls a platform tool or an intent commits the reply first and has
        // those done outside any transaction (the calendar is fetched over HTTP).
        java.util.concurrent.atomic.AtomicReference<Replied> reachesOut = new java.util.concurrent.atomic.AtomicReference<>();
        try {
            once(runId, () -> reachesOut.set(recorded(runId, turn, answered, latencyMs)));
        } catch (RuntimeException e) {
            // not a conflict that passed (those were tried again): the reply itself cannot be
            // recorded (the database refused it) or the run's next step failed with it. The turn
            // ends failed now, saying so, rather than at its deadline as if the model were silent.
            log.warn("the reply to turn {} of run {} was not recorded", turn, runId, e);
            fail(runId, turn, "reply_unrecorded", "the model's reply could not be recorded: "
                    + OpenAiCompatibleModel.rootMessage(e));
            return;
        }
        if (reachesOut.get() != null) {
            handle(runId, turn, reachesOut.get());
        }
    }

    /**
     * In the caller's transaction: the reply recorded and, unless a call of it reaches beyond the
     * record, settled with its run woken. Returns what handling the calls that reach out needs, or
     * null when nothing is left to do (settled, or the turn ended meanwhile: its deadline, when the
     * reply only counts as tokens spent).
     */
    private Replied recorded(String runId, int turn, ModelReply.Answered answered, int latencyMs) {
        if (!store.replied(runId, turn, answered, latencyMs, clock.instant())) {
            return null;
        }
        Replied replied = replied(runId, turn);
        if (!outside(turn, replied).isEmpty()) {
            return replied;
        }
        settle(runId, turn, replied);
        return null;
    }

    /**
     * The node's rehearsal of a turn (see {@link LlmSessions#rehearseTurn}), in the caller's
     * transaction: the turn's model call read from the record, the model's client mapping it and a
     * reply calling {@code call} (null: a final answer) as if its server had answered, with nothing
     * sent ({@link Model#rehearse}), then the reply recorded and settled as a worker's is, with no
     * wait for the devices. A call that reaches beyond the record (a platform tool, an intent) is not rehearsed:
     * it would act outside the transaction.
     */
    void rehearse(String runId, int turn, ToolCall call) {
        ModelReply reply = model.rehearse(prepare(runId), call);
        if (!(reply instanceof ModelReply.Answered answered)) {
            throw new IllegalStateException("the rehearsed turn failed: " + reply);
        }
        if (recorded(runId, turn, answered, 0) != null) {
            throw new IllegalStateException("a rehearsed reply may only call device commands");
        }
    }

    /**
     * Wakes the run for a turn this transaction just ended (recorded ready or failed by a
     * conditional update, which holds the turn's row: no later turn can be asked before the run is
     * woken for this one), in the caller's transaction; a held wait is left to the sweep. True if
     * the run was woken (or nothing waits any more).
     */
    private boolean wake(String runId, int turn) {
        return woken(runId, turn, store.turn(runId, turn).map(SessionStore.Turn::waitExecution));
    }

    /**
     * Wakes the run for a turn that was ready or failed already (its wake held back, or lost in a
     * restart), only while the turn is still the run's latest ({@link SessionStore#waitOfLatest}):
     * another waker may have moved the run on to its next turn, which waits in the same execution.
     */
    private boolean wakeIfLatest(String runId, int turn) {
        return woken(runId, turn, store.waitOfLatest(runId, turn));
    }

    private boolean woken(String runId, int turn, Optional<String> wait) {
        if (wait.isEmpty() || wake.turnDone(runId, turn, wait.get())) {
            return true;
        }
        store.wakeAgain(runId, turn, clock.instant().plus(RunStore.SUSPENDED_LOOK_AGAIN));
        return false;
    }

    /** Ends a turn without a usable reply and wakes its run, in one transaction. */
    private void fail(String runId, int turn, String code, String message) {
        once(runId, () -> {
            if (store.failed(runId, turn, code, message, clock.instant())) {
                wake(runId, turn);
            }
        });
    }

    /** Why a turn's wait ended unanswered: the model's reply timeout, or the run's maxRunSeconds. */
    record TimeUp(String code, String message) {
    }

    TimeUp timeUp(String runId, Instant now) {
        RunStore.Run run = runs.find(runId).orElseThrow();
        AgentSpec spec = agents.spec(run.agentId(), run.revision());
        Instant started = run.startedAt() == null ? run.createdAt() : run.startedAt();
        boolean overtime = !now.isBefore(started.plusSeconds(spec.budget().maxRunSeconds()));
        return overtime
                ? new TimeUp("max_run_seconds", "the run's " + spec.budget().maxRunSeconds()
                        + " s ran out while the model was thinking")
                : new TimeUp("model_timeout", "the model did not answer within "
                        + settings.replyTimeout().toSeconds() + " s");
    }

    /**
     * A turn due (the sweep of {@link LlmSessions#endOverdueTurns}): one still asked or replied is
     * past its deadline, and is recorded failed with the reason {@link #timeUp} gives; then its run
     * is woken, all in one transaction. A turn already ready or failed only needed its wake.
     */
    void due(String runId, int turn) {
        try {
            once(runId, () -> {
                Instant now = clock.instant();
                SessionStore.Turn recorded = store.turn(runId, turn).orElse(null);
                if (recorded == null) {
                    return;
                }
                boolean unfinished = recorded.status() == SessionStore.TurnStatus.ASKED
                        || recorded.status() == SessionStore.TurnStatus.REPLIED;
                if (unfinished) {
                    TimeUp timeUp = timeUp(runId, now);
                    if (store.failed(runId, turn, timeUp.code(), timeUp.message(), now)) {
                        wake(runId, turn); // failed() cleared its reply_by
                    }
                    // else its reply was recorded meanwhile, and that transaction woke the run
                } else if (wakeIfLatest(runId, turn)) {
                    store.woken(runId, turn);
                }
            });
        } catch (RuntimeException e) {
            // tried again at the next sweep: the turn stays due until it is woken
            log.info("the due turn {} of run {} was not ended yet: {}", turn, runId, e.toString());
        }
    }

    /** What handling a replied turn reads of the record. */
    private record Replied(RunStore.Run run, AgentSpec spec, String text, List<SessionStore.Call> calls) {
    }

    /** The model call for the run's next turn, from its record; null if the run is gone. */
    ModelCall prepare(String runId) {
        RunStore.Run run = runs.find(runId).orElse(null);
        if (run == null) {
            return null;
        }
        AgentSpec spec = agents.spec(run.agentId(), run.revision());
        List<SessionStore.Turn> turns = store.turns(runId);
        int spent = turns.stream().mapToInt(SessionStore.Turn::tokens).sum();
        int maxTokens = Math.max(1, Math.min(settings.maxTokensPerTurn(), spec.budget().tokensPerRun() - spent));
        return new ModelCall(conversation(run, spec, turns), SessionTools.of(spec, registered), maxTokens);
    }

    private List<Message> conversation(RunStore.Run run, AgentSpec spec, List<SessionStore.Turn> turns) {
        AgentStore.Agent agent = agentStore.find(run.agentId()).orElse(null);
        JsonNode state = agent == null ? json.createObjectNode() : tree(agent.state());
        Instant since = runs.list(run.agentId(), 2).stream().filter(other -> !other.id().equals(run.id()))
                .map(RunStore.Run::createdAt).findFirst().orElse(run.createdAt().minusSeconds(86_400));
        Conversation.Context context = new Conversation.Context(spec.instructions(), run.triggerData(), state,
                agent == null ? 0 : agent.stateVersion(), briefings.briefingOf(run.agentId(), since), spec.gadgets(),
                clock.instant().toString());
        return Conversation.of(context, turns, store.calls(run.id()), runs.actions(run.id()), json);
    }

    /** A replied turn found again after a restart: read, then handled as {@link #ask} handles a reply. */
    private void handle(String runId, int turn) {
        handle(runId, turn, transactions.execute(status -> replied(runId, turn)));
    }

    /** What handling a replied turn needs, read in the caller's transaction. */
    private Replied replied(String runId, int turn) {
        RunStore.Run found = runs.find(runId).orElseThrow();
        return new Replied(found, agents.spec(found.agentId(), found.revision()),
                store.turn(runId, turn).map(SessionStore.Turn::replyText).orElse(""), store.calls(runId));
    }

    /**
     * A replied turn's unhandled calls as ring 0 takes them: each with its route, or with none
     * when the run's toolCallsPerRun leaves no room for it (refused on the record).
     */
    private Map<SessionStore.Call, Optional<ToolRouting.Route>> routes(int turn, Replied replied) {
        long earlier = replied.calls().stream().filter(call -> call.turn() < turn).count();
        Map<SessionStore.Call, Optional<ToolRouting.Route>> routes = new LinkedHashMap<>();
        for (SessionStore.Call call : replied.calls()) {
            if (call.turn() != turn || call.done()) {
                continue;
            }
            routes.put(call, earlier + call.seq() + 1 > replied.spec().budget().toolCallsPerRun() ? Optional.empty()
                    : Optional.of(ToolRouting.route(new ToolCall(call.callId(), call.tool(), call.arguments()),
                            replied.spec(), registered)));
        }
        return routes;
    }

    /** The calls of the turn that reach beyond the record: platform tools and ring-3 intents. */
    private Map<SessionStore.Call, ToolRouting.Route> outside(int turn, Replied replied) {
        Map<SessionStore.Call, ToolRouting.Route> outside = new LinkedHashMap<>();
        routes(turn, replied).forEach((call, route) -> route
                .filter(r -> r instanceof ToolRouting.Tool || r instanceof ToolRouting.Intent)
                .ifPresent(r -> outside.put(call, r)));
        return outside;
    }

    /**
     * A reply whose calls reach beyond the record: its platform tools and intents are handled
     * here, outside any transaction (each recorded as it is done, so a restart does none twice),
     * then the rest is settled and the run woken in one transaction.
     */
    private void handle(String runId, int turn, Replied replied) {
        RunStore.Run run = replied.run();
        Subject.AgentRun subject = new Subject.AgentRun(run.ownerId(), run.agentId(), run.revision(), run.id());
        String rationale = replied.text().isBlank() ? "asked for by the model of run " + runId : replied.text();
        outside(turn, replied).forEach((call, route) -> {
            if (route instanceof ToolRouting.Tool tool) {
                tool(subject, call, tool);
            } else {
                intent(subject, call, (ToolRouting.Intent) route, rationale);
            }
        });
        once(runId, () -> settle(runId, turn, replied));
    }

    /**
     * In the caller's transaction: the calls of a replied turn settled on the record alone (a
     * device command becomes a run action, which the run dispatches through the kernel; a call
     * refused by its routing or by toolCallsPerRun is recorded so), then the turn is ready and its
     * run woken. The calls that reach out were handled before (see {@link #handle}).
     */
    private void settle(String runId, int turn, Replied replied) {
        RunStore.Run run = replied.run();
        routes(turn, replied).forEach((call, route) -> {
            if (route.isEmpty()) {
                store.handled(runId, turn, call.seq(), null, "refused", "toolCallsPerRun: this run may make "
                        + replied.spec().budget().toolCallsPerRun() + " tool calls", null);
            } else if (route.get() instanceof ToolRouting.Command command) {
                store.becameAction(runId, turn, call.seq(), command.command(),
                        runs.appendAction(runId, new RunStore.NewAction(command.gadgetId(), command.command(),
                                command.params().toString()), clock.instant()));
            } else if (route.get() instanceof ToolRouting.Refused refused) {
                store.handled(runId, turn, call.seq(), refused.capability(), "refused",
                        refused.code() + ": " + refused.message(), null);
                gates.refused(run.ownerId(), run.agentId(), runId, call.tool(), refused.code());
            }
        });
        if (store.ready(runId, turn)) {
            wake(runId, turn);
        }
    }

    private void tool(Subject.AgentRun subject, SessionStore.Call call, ToolRouting.Tool tool) {
        Verdict verdict = kernel.decideTool(subject, tool.tool());
        if (!(verdict instanceof Verdict.Allow)) {
            String reason = verdict instanceof Verdict.Deny deny ? deny.reason().wire() + ": " + deny.detail()
                    : verdict.wire();
            store.handled(subject.runId(), call.turn(), call.seq(), tool.tool(), "deny", reason, null);
            gates.refused(subject.accountId(), subject.agentId(), subject.runId(), tool.tool(),
                    verdict instanceof Verdict.Deny deny ? deny.reason().wire() : verdict.wire());
            return;
        }
        LocalTools.Result result = tools.run(tool.tool(), subject.accountId(), subject.agentId(), tool.arguments());
        ObjectNode content = json.createObjectNode().put("status", result.outcome());
        content.set("content", result.content());
        store.handled(subject.runId(), call.turn(), call.seq(), tool.tool(), "allow", null, content.toString());
    }

    private void intent(Subject.AgentRun subject, SessionStore.Call call, ToolRouting.Intent intent, String rationale) {
        if ("submitting".equals(call.verdict())) {
            // the node stopped while this envelope was submitted: it may have been filed or executed
            store.handled(subject.runId(), call.turn(), call.seq(), intent.intent(), "unknown",
                    "the platform restarted while this was submitted; journal.read says what became of it", null);
            return;
        }
        store.deciding(subject.runId(), call.turn(), call.seq(), intent.intent(), "submitting");
        Envelopes.Answer answer = envelopes.submitEnvelope(subject, intent.intent(), intent.payload(), rationale);
        ObjectNode content = json.createObjectNode();
        String verdict;
        String reason = null;
        if (answer instanceof Envelopes.Done done) {
            verdict = "allow";
            content.put("state", done.state()).put("gate", done.gateId());
            content.set("result", done.result());
        } else if (answer instanceof Envelopes.Pending pending) {
            verdict = "gate";
            content.put("gate", pending.gateId())
                    .put("note", "held for the owner's approval; journal.read tells what became of it");
        } else {
            Envelopes.Denied denied = (Envelopes.Denied) answer;
            verdict = "deny";
            reason = denied.reason() + ": " + denied.detail();
        }
        store.handled(subject.runId(), call.turn(), call.seq(), intent.intent(), verdict, reason,
                content.isEmpty() ? null : content.toString());
    }

    private JsonNode tree(String text) {
        try {
            return text == null ? json.createObjectNode() : json.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return json.createObjectNode();
        }
    }
}
