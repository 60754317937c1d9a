package dev.ringzero.agents.llm;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.KernelBudgets;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.agents.runs.ModelSessions;
import dev.ringzero.agents.runs.RunStatus;
import dev.ringzero.agents.runs.RunStore;
import dev.ringzero.kernel.Budget;
import dev.ringzero.kernel.RunMeter;
import dev.ringzero.kernel.Verdict;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The steps of an llm run's session as {@code agent-run}'s model loop calls them (asked in the
 * engine's transaction, played by {@link ModelTurns} off it), and the session as the run's loop
 * sees it ({@link ModelSessions}). The run's budgets are the kernel's {@link RunMeter}: tool calls
 * and tokens so far, charged from the record before every turn.
 */
public class LlmSessions implements ModelSessions {

    /** A margin past the reply timeout, so a reply at the last moment still counts. */
    static final Duration REPLY_GRACE = Duration.ofSeconds(2);

    private final LlmSettings settings;
    private final SessionStore store;
    private final RunStore runs;
    private final AgentService agents;
    private final ModelTurns turns;
    private final ObjectMapper json;
    private final Clock clock;

    LlmSessions(LlmSettings settings, SessionStore store, RunStore runs, AgentService agents, ModelTurns turns,
            ObjectMapper json, Clock clock) {
        this.settings = settings;
        this.store = store;
        this.runs = runs;
        this.agents = agents;
        this.turns = turns;
        this.json = json;
        this.clock = clock;
    }

    @Override
    public boolean configured() {
        return settings.configured();
    }

    @Override
    public boolean wantsTurn(RunStore.Run run) {
        List<SessionStore.Turn> recorded = store.turns(run.id());
        if (!recorded.isEmpty()) {
            SessionStore.Turn last = recorded.get(recorded.size() - 1);
            if (last.status() != SessionStore.TurnStatus.READY) {
                return false; // failed: the run was ended with it
            }
            boolean finalAnswer = store.calls(run.id()).stream().noneMatch(call -> call.turn() == last.turn());
            if (finalAnswer) {
                return false;
            }
        }
        Optional<String> over = overBudget(run, recorded);
        if (over.isPresent()) {
            runs.end(run.id(), RunStatus.FAILED, over.get(), clock.instant());
            return false;
        }
        return true;
    }

    /** Which budget a further turn would break, said as the run's reason; empty while all hold. */
    private Optional<String> overBudget(RunStore.Run run, List<SessionStore.Turn> recorded) {
        AgentSpec spec = agents.spec(run.agentId(), run.revision());
        int tokens = recorded.stream().mapToInt(SessionStore.Turn::tokens).sum();
        long calls = store.calls(run.id()).size();
        Verdict metered = new RunMeter(KernelBudgets.of(spec)).charge((int) calls, tokens);
        if (metered instanceof Verdict.OverBudget over) {
            return Optional.of(over.budget() + ": the session used " + (Budget.TOKENS_PER_RUN.equals(over.budget())
                    ? tokens + " tokens of " + spec.budget().tokensPerRun()
                    : calls + " tool calls of " + spec.budget().toolCallsPerRun()));
        }
        if (tokens >= spec.budget().tokensPerRun()) {
            return Optional.of(Budget.TOKENS_PER_RUN + ": no tokens left for another turn (" + tokens + " of "
                    + spec.budget().tokensPerRun() + ")");
        }
        long today = store.ownerTokensOn(run.ownerId(), clock.instant());
        if (today >= settings.dailyTokensPerOwner()) {
            return Optional.of("owner_daily_tokens: the owner's runs used " + today + " tokens today (UTC) of "
                    + settings.dailyTokensPerOwner());
        }
        return Optional.empty();
    }

    /**
     * Step {@code Task_AskModel}: records the next turn as asked, reads its model call (the
     * conversation so far) in this transaction, and has it played once this transaction commits
     * (a rolled-back step asks nothing). The turn's record names the engine execution that waits
     * for it ({@code waitExecution}), which whoever ends the turn wakes. The wait ends at the reply
     * timeout, or at the run's maxRunSeconds if that comes first: the turn's {@code reply_by},
     * which {@link #endOverdueTurns} watches.
     */
    public void ask(String runId, Instant runDeadline, String waitExecution) {
        RunStore.Run run = runs.find(runId).orElseThrow();
        int turn = store.turns(runId).stream().mapToInt(SessionStore.Turn::turn).max().orElse(0) + 1;
        Instant now = clock.instant();
        Instant replyBy = now.plus(settings.replyTimeout()).plus(REPLY_GRACE);
        Instant deadline = replyBy.isBefore(runDeadline) ? replyBy : runDeadline;
        store.asked(runId, turn, run.ownerId(), now, deadline, waitExecution);
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            // read here, in the step's transaction, where the run and its turns are read already
            // (a transaction of its own on the worker before: the sixteenth series)
            ModelCall call = turns.prepare(runId);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    turns.play(runId, turn, call, deadline);
                }
            });
        } else {
            turns.play(runId, turn, null, deadline);
        }
    }

    /**
     * For the node's rehearsal of its hot path ({@code dev.ringzero.rehearsal}): the run's asked turn
     * answered in the caller's transaction, through the model client's mapping and then recorded
     * and settled as a model's reply is, with one tool call of the device command {@code command}
     * and its {@code params} (on the run's only gadget), or as the model's final answer when
     * {@code command} is null. No model is asked and no worker waits; the run goes on in the same
     * transaction, which the rehearsal never commits. False if the run has no turn waiting for its
     * reply.
     */
    public boolean rehearseTurn(String runId, String command, JsonNode params) {
        List<SessionStore.Turn> recorded = store.turns(runId);
        if (recorded.isEmpty() || recorded.get(recorded.size() - 1).status() != SessionStore.TurnStatus.ASKED) {
            return false;
        }
        int turn = recorded.get(recorded.size() - 1).turn();
        turns.rehearse(runId, turn, command == null ? null
                : new ToolCall("rehearsal-" + turn, ToolNames.wire(command), params.toString()));
        return true;
    }

    /**
     * Step {@code Task_ModelAnswered}, woken by the turn's end: a ready turn goes on; a failed one
     * (by the model, or by its deadline) ends the run with its reason. A turn found unfinished
     * (nothing wakes the wait before its turn ends; this is a guard) ends as its deadline says.
     */
    public void answeredLast(String runId) {
        List<SessionStore.Turn> all = store.turns(runId);
        SessionStore.Turn recorded = all.get(all.size() - 1);
        Instant now = clock.instant();
        switch (recorded.status()) {
            case READY -> {
            }
            case FAILED -> runs.end(runId, RunStatus.FAILED, recorded.errorCode() + ": " + recorded.error(), now);
            default -> {
                ModelTurns.TimeUp timeUp = turns.timeUp(runId, now);
                store.failed(runId, recorded.turn(), timeUp.code(), timeUp.message(), now);
                runs.end(runId, RunStatus.FAILED, timeUp.code() + ": " + timeUp.message(), now);
            }
        }
    }

    /**
     * The deadline of turns, one sweep per node (a timer job per turn before): a turn still asked
     * or replied at its {@code reply_by} is recorded failed and its run woken, in one transaction
     * each, behind the turn's conditional update, so a reply at that moment or another node's
     * sweep ends it once. A turn ready or failed whose run could not be woken then (suspended) is
     * woken here once it can be.
     */
    void endOverdueTurns(int limit) {
        for (SessionStore.Overdue overdue : store.overdue(clock.instant(), limit)) {
            turns.due(overdue.runId(), overdue.turn());
        }
    }

    /** After a restart: turns that were in flight here (or on a node that is gone) are played again or finished. */
    void resumeUnfinished() {
        store.unfinished(clock.instant()).stream().filter(store::claim).forEach(turns::resume);
    }

    /**
     * On a node of a cluster, now and then: a node that died in the middle of a session leaves its
     * turns to the others, and the first to claim one resumes it (a restart of that node would
     * too, but it may never come back).
     */
    void resumeOrphaned() {
        store.orphaned(clock.instant()).stream().filter(store::claim).forEach(turns::resume);
    }

    /** One turn of the transcript, as the run's view shows it. */
    public record TurnView(int turn, String status, Instant askedAt, Instant repliedAt, int tokensIn, int tokensOut,
            Integer latencyMs, String text, String errorCode, String error, List<CallView> toolCalls) {
    }

    /** One tool call of the transcript with ring 0's verdict; a device command's outcome is its action's. */
    public record CallView(String id, String tool, String capability, JsonNode arguments, String verdict,
            String reason, Integer actionIndex, JsonNode result) {
    }

    /** The session's record: tokens, latency, every tool call and verdict; what the model read back. */
    public record Transcript(int tokens, int toolCalls, List<TurnView> turns) {
    }

    @Override
    public int tokensSpent(String runId) {
        return store.turns(runId).stream().mapToInt(SessionStore.Turn::tokens).sum();
    }

    @Override
    public Optional<Object> transcript(String runId) {
        List<SessionStore.Turn> recorded = store.turns(runId);
        if (recorded.isEmpty()) {
            return Optional.empty();
        }
        List<SessionStore.Call> calls = store.calls(runId);
        List<RunStore.Action> actions = runs.actions(runId);
        List<TurnView> views = recorded.stream().map(turn -> new TurnView(turn.turn(), turn.status().wire(),
                turn.askedAt(), turn.repliedAt(), turn.tokensIn(), turn.tokensOut(), turn.latencyMs(), turn.replyText(),
                turn.errorCode(), turn.error(), calls.stream().filter(call -> call.turn() == turn.turn())
                        .map(call -> new CallView(call.callId(), call.tool(), call.capability(), tree(call.arguments()),
                                call.verdict(), call.reason(), call.actionIndex(),
                                tree(Conversation.result(call, actions, json)))).toList())).toList();
        return Optional.of(new Transcript(recorded.stream().mapToInt(SessionStore.Turn::tokens).sum(), calls.size(),
                views));
    }

    private JsonNode tree(String text) {
        try {
            return text == null ? null : json.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return json.getNodeFactory().textNode(text);
        }
    }
}
