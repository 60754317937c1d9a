package dev.ringzero.agents.llm;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.AgentStore;
import dev.ringzero.agents.definition.AgentSpec;
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
    private final TransactionTemplate transactions;
    private final ExecutorService workers;
    private final ObjectMapper json;
    private final Clock clock;

    ModelTurns(Model model, LlmSettings settings, SessionStore store, RunStore runs, AgentService agents,
            AgentStore agentStore, RegisteredCommands registered, PolicyKernel kernel, Envelopes envelopes,
            GateDesk gates, GateService briefings, LocalTools tools, SessionWake wake,
            TransactionTemplate transactions, ExecutorService workers, ObjectMapper json, Clock clock) {
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

    /** Plays an asked turn on a worker (after the transaction that asked it committed). */
    void play(String runId, int turn) {
        submit(() -> ask(runId, turn));
    }

    /**
     * After a restart: asks an asked turn again (a model call has no effect), finishes a replied
     * one, and wakes the run again for a last turn already ready or failed: the node may have
     * stopped between recording it and the wake, and a wake nobody waits for is harmless.
     */
    void resume(SessionStore.Turn turn) {
        if (turn.status() == SessionStore.TurnStatus.ASKED) {
            play(turn.runId(), turn.turn());
        } else if (turn.status() == SessionStore.TurnStatus.REPLIED) {
            submit(() -> handle(turn.runId(), turn.turn()));
        } else {
            submit(() -> wake.turnDone(turn.runId(), turn.turn()));
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

    private void ask(String runId, int turn) {
        // the conversation is read from the record in one transaction (a dozen reads, each its own
        // transaction before: the benchmark's eighth series), which ends before the model is asked,
        // so no connection is held while it thinks
        ModelCall call = transactions.execute(status -> call(runId));
        if (call == null) {
            return;
        }
        long started = System.nanoTime();
        ModelReply reply = model.ask(call);
        int latencyMs = (int) ((System.nanoTime() - started) / 1_000_000);
        if (reply instanceof ModelReply.Failed failed) {
            store.failed(runId, turn, failed.code(), failed.message(), clock.instant());
            wake.turnDone(runId, turn);
            return;
        }
        ModelReply.Answered answered = (ModelReply.Answered) reply;
        // the reply is recorded, and what handling it needs is read, in one transaction
        Replied replied = transactions.execute(status -> store.replied(runId, turn, answered, latencyMs,
                clock.instant()) ? replied(runId, turn) : null);
        if (replied != null) {
            handle(runId, turn, replied);
        }
    }

    /** What handling a replied turn reads of the record. */
    private record Replied(RunStore.Run run, AgentSpec spec, String text, List<SessionStore.Call> calls) {
    }

    /** The model call for the run's next turn, from its record; null if the run is gone. */
    private ModelCall call(String runId) {
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
        java.time.Instant since = runs.list(run.agentId(), 2).stream().filter(other -> !other.id().equals(run.id()))
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
     * Hands every unhandled call of a replied turn to ring 0, then marks the turn ready and wakes
     * the run. The calls are handled outside the transaction that read them (a platform tool may
     * fetch the owner's calendar over HTTP, which must hold no connection).
     */
    private void handle(String runId, int turn, Replied replied) {
        RunStore.Run run = replied.run();
        AgentSpec spec = replied.spec();
        Subject.AgentRun subject = new Subject.AgentRun(run.ownerId(), run.agentId(), run.revision(), run.id());
        String rationale = replied.text().isBlank() ? "asked for by the model of run " + runId : replied.text();
        List<SessionStore.Call> all = replied.calls();
        long earlier = all.stream().filter(call -> call.turn() < turn).count();
        List<Runnable> actions = new ArrayList<>();
        for (SessionStore.Call call : all) {
            if (call.turn() != turn || call.done()) {
                continue;
            }
            if (earlier + call.seq() + 1 > spec.budget().toolCallsPerRun()) {
                store.handled(runId, turn, call.seq(), null, "refused", "toolCallsPerRun: this run may make "
                        + spec.budget().toolCallsPerRun() + " tool calls", null);
                continue;
            }
            ToolRouting.Route route = ToolRouting.route(new ToolCall(call.callId(), call.tool(), call.arguments()),
                    spec, registered);
            if (route instanceof ToolRouting.Command command) {
                actions.add(() -> store.becameAction(runId, turn, call.seq(), command.command(),
                        runs.appendAction(runId, new RunStore.NewAction(command.gadgetId(), command.command(),
                                command.params().toString()), clock.instant())));
            } else if (route instanceof ToolRouting.Tool tool) {
                tool(subject, call, tool);
            } else if (route instanceof ToolRouting.Intent intent) {
                intent(subject, call, intent, rationale);
            } else {
                ToolRouting.Refused refused = (ToolRouting.Refused) route;
                store.handled(runId, turn, call.seq(), refused.capability(), "refused",
                        refused.code() + ": " + refused.message(), null);
                gates.refused(run.ownerId(), run.agentId(), runId, call.tool(), refused.code());
            }
        }
        transactions.executeWithoutResult(status -> {
            actions.forEach(Runnable::run);
            store.ready(runId, turn);
        });
        wake.turnDone(runId, turn);
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
