package dev.ringzero.agents.runs;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.Refusal;
import dev.ringzero.agents.AgentService;
import io.swagger.v3.oas.annotations.media.Schema;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * An owner's runs, one place for every door (REST, MCP): an explicit run, the history of an
 * agent, one run with its actions and (for {@code llm} runs) its model session, and the decision
 * ledger. Another owner's agent or run is "not found", exactly like an unknown one.
 */
@Component
public class RunViews {

    public record RunStarted(String runId, String status, String reason) {
    }

    public record RunView(String id, String agentId, int revision, String triggerKind, JsonNode trigger,
            String eventId, boolean proactive, String status, String reason, Instant createdAt, Instant startedAt,
            Instant endedAt, Long durationMs,
            @Schema(description = "what the run cost: commands sent to "
                    + "devices, duration, model tokens; in the single run's view only")
            @JsonInclude(JsonInclude.Include.NON_NULL)
            Cost cost,
            List<ActionView> actions,
            @Schema(description = "an llm run's model session: every turn "
                    + "(tokens, latency, text) and every tool call with ring 0's verdict; absent for rules runs")
            @JsonInclude(JsonInclude.Include.NON_NULL)
            Object session) {
    }

    /** What one run cost: commands that left for a device, its duration so far or in all, model tokens. */
    public record Cost(int commandsSent, Long durationMs, int tokens) {
    }

    public record ActionView(int index, String gadget, String command, JsonNode params, String verdict,
            String outcome, String errorCode, String invocationId, JsonNode result, Instant startedAt,
            Instant endedAt) {
    }

    private final AgentService agents;
    private final RunStore runs;
    private final RunEngine launcher;
    private final TransactionTemplate transactions;
    private final ObjectMapper json;
    private final ObjectProvider<ModelSessions> sessions;
    private final DevicesFirst devicesFirst;
    private final Duration invokeYield;

    RunViews(AgentService agents, RunStore runs, RunEngine launcher, TransactionTemplate transactions,
            ObjectMapper json, ObjectProvider<ModelSessions> sessions, DevicesFirst devicesFirst,
            @org.springframework.beans.factory.annotation.Value("${ringzero.runs.invoke-yield-to-events:PT1S}")
            Duration invokeYield) {
        this.devicesFirst = devicesFirst;
        this.invokeYield = invokeYield;
        this.agents = agents;
        this.runs = runs;
        this.launcher = launcher;
        this.transactions = transactions;
        this.json = json;
        this.sessions = sessions;
    }

    /**
     * Runs the owner's agent now: an explicit {@code invoke} run, not held back by proactive budgets.
     * It starts after this node's device events (up to {@code ringzero.runs.invoke-yield-to-events}
     * later, see {@link DevicesFirst}): a client waits a moment, a gadget's reaction does not.
     */
    public RunStarted invoke(String ownerId, String agentId, JsonNode input) {
        return devicesFirst.after(invokeYield, () -> invokeAtOnce(ownerId, agentId, input));
    }

    /** {@link #invoke} without yielding to device events: for the start-up rehearsal, which has none. */
    public RunStarted invokeAtOnce(String ownerId, String agentId, JsonNode input) {
        String runId = UUID.randomUUID().toString();
        String trigger = json.createObjectNode().put("kind", "invoke")
                .set("input", input == null ? json.createObjectNode() : input).toString();
        // One transaction for the request: the owner's agent, the start, and the run as it stands
        // (the agent and the run read outside it before, each a commit of its own: two of the
        // nine a benchmark session's run cost, thirty-first series). The agent read here is the
        // start's too (TransactionReads); an unknown agent rolls back nothing.
        return transactions.execute(status -> {
            var current = agents.current(ownerId, agentId);
            launcher.start(new RunRequest(runId, agentId, ownerId, current.agent().currentRevision(), "invoke",
                    trigger, null, false));
            RunStore.Run run = runs.find(runId).orElseThrow();
            return new RunStarted(runId, run.status().wire(), run.reason());
        });
    }

    /** The agent's runs, newest first, without their actions; {@code limit} is kept within 1..500. */
    public List<RunView> history(String ownerId, String agentId, int limit) {
        agents.current(ownerId, agentId);
        return runs.list(agentId, Math.max(1, Math.min(limit, 500))).stream().map(run -> view(run, false)).toList();
    }

    /**
     * The agent's runs, newest first; with {@code actions} each carries its actions and cost as the
     * single run's view does, and {@code limit} is kept within 1..50 then.
     */
    public List<RunView> history(String ownerId, String agentId, int limit, boolean actions) {
        if (!actions) {
            return history(ownerId, agentId, limit);
        }
        agents.current(ownerId, agentId);
        return runs.list(agentId, Math.max(1, Math.min(limit, 50))).stream().map(run -> view(run, true)).toList();
    }

    /** Any owner's run with its actions, cost and model session (the analysts' history; no owner check). */
    RunView detail(RunStore.Run run) {
        return view(run, true);
    }

    /** One run with its actions, cost and (for an {@code llm} run) its model session. */
    public RunView run(String ownerId, String runId) {
        return runs.find(runId).filter(run -> run.ownerId().equals(ownerId)).map(run -> view(run, true))
                .orElseThrow(() -> Refusal.notFound("run"));
    }

    /** Why it did or did not run; {@code limit} is kept within 1..1000. */
    public List<RunStore.Decision> decisions(String ownerId, String agentId, int limit) {
        agents.current(ownerId, agentId);
        return runs.decisions(agentId, Math.max(1, Math.min(limit, 1000)));
    }

    private RunView view(RunStore.Run run, boolean withActions) {
        Long duration = run.startedAt() != null && run.endedAt() != null
                ? Duration.between(run.startedAt(), run.endedAt()).toMillis() : null;
        List<ActionView> actions = withActions ? runs.actions(run.id()).stream().map(action -> new ActionView(
                action.index(), action.gadgetId(), action.command(), tree(action.params()), action.verdict(),
                action.outcome(), action.errorCode(), action.invocationId(), tree(action.result()),
                action.startedAt(), action.endedAt())).toList() : null;
        ModelSessions model = sessions.getIfAvailable(() -> ModelSessions.NONE);
        Cost cost = withActions ? new Cost((int) actions.stream().filter(action -> action.invocationId() != null)
                .count(), duration, model.tokensSpent(run.id())) : null;
        return new RunView(run.id(), run.agentId(), run.revision(), run.triggerKind(), tree(run.triggerData()),
                run.eventId(), run.proactive(), run.status().wire(), run.reason(), run.createdAt(), run.startedAt(),
                run.endedAt(), duration, cost, actions, withActions ? model.transcript(run.id()).orElse(null) : null);
    }

    private JsonNode tree(String text) {
        try {
            return text == null ? null : json.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return json.getNodeFactory().textNode(text);
        }
    }
}
