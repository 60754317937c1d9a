package dev.ringzero.agents.runs;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.accounts.Caller;
import dev.ringzero.agents.AgentService;
import dev.ringzero.QueryFilters;
import dev.ringzero.Refusal;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Tag(name = "runs", description = "explicit runs, run history and the decision ledger")
class RunController {

    private final AgentService agents;
    private final RunStore runs;
    private final RunEngine launcher;
    private final TransactionTemplate transactions;
    private final ObjectMapper json;
    private final DryRun dryRun;
    private final org.springframework.beans.factory.ObjectProvider<ModelSessions> sessions;

    RunController(AgentService agents, RunStore runs, RunEngine launcher, TransactionTemplate transactions,
            ObjectMapper json, DryRun dryRun, org.springframework.beans.factory.ObjectProvider<ModelSessions> sessions) {
        this.sessions = sessions;
        this.dryRun = dryRun;
        this.agents = agents;
        this.runs = runs;
        this.launcher = launcher;
        this.transactions = transactions;
        this.json = json;
    }

    record RunStarted(String runId, String status, String reason) {
    }

    record RunView(String id, String agentId, int revision, String triggerKind, JsonNode trigger, String eventId,
            boolean proactive, String status, String reason, Instant createdAt, Instant startedAt, Instant endedAt,
            Long durationMs,
            @io.swagger.v3.oas.annotations.media.Schema(description = "what the run cost: commands sent to "
                    + "devices, duration, model tokens; in the single run's view only")
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
            Cost cost,
            List<ActionView> actions,
            @io.swagger.v3.oas.annotations.media.Schema(description = "an llm run's model session: every turn "
                    + "(tokens, latency, text) and every tool call with ring 0's verdict; absent for rules runs")
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
            Object session) {
    }

    /** What one run cost: commands that left for a device, its duration so far or in all, model tokens. */
    record Cost(int commandsSent, Long durationMs, int tokens) {
    }

    record ActionView(int index, String gadget, String command, JsonNode params, String verdict, String outcome,
            String errorCode, String invocationId, JsonNode result, Instant startedAt, Instant endedAt) {
    }

    @PostMapping("/api/v1/gadget-agents/{id}/runs")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(summary = "Run it now: an explicit run (not blocked by proactive budgets); answers with the run id")
    RunStarted runNow(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode input) {
        var current = agents.current(caller.accountId(), id);
        String runId = UUID.randomUUID().toString();
        String trigger = json.createObjectNode().put("kind", "invoke")
                .set("input", input == null ? json.createObjectNode() : input).toString();
        transactions.executeWithoutResult(status -> launcher.start(new RunRequest(runId, id, caller.accountId(),
                current.agent().currentRevision(), "invoke", trigger, null, false)));
        RunStore.Run run = runs.find(runId).orElseThrow();
        return new RunStarted(runId, run.status().wire(), run.reason());
    }

    @PostMapping("/api/v1/gadget-agents/{id}/dry-run")
    @Operation(summary = "Dry run of a saved agent: matched trigger, rendered actions, verdicts; no hardware effect",
            description = "The optional trigger is an occurrence ({\"kind\":\"gadget.event\",\"gadget\":{\"id\":…},"
                    + "\"event\":{\"name\":…,\"data\":{…}}}) or written as in a definition ({\"kind\":\"gadget.event\","
                    + "\"gadget\":\"desk-1\",\"event\":\"shaken\",\"data\":{…}}); any other shape is 400 invalid-trigger. "
                    + "Without one, the agent's first trigger is simulated.")
    DryRun.Report dryRun(Caller caller, @PathVariable String id, @RequestBody(required = false) DryRunRequest body) {
        return dryRun.saved(caller.accountId(), id, body == null ? null : body.trigger());
    }

    @PostMapping("/api/v1/gadget-agents/dry-run")
    @Operation(summary = "Dry run of an unsaved definition (validated first); no hardware effect, nothing stored")
    DryRun.Report dryRunUnsaved(Caller caller, @RequestBody JsonNode body) {
        JsonNode definition = body.has("definition") ? body.get("definition") : body;
        return dryRun.unsaved(caller.accountId(), agents.validate(caller.accountId(), definition),
                body.has("definition") ? body.get("trigger") : null);
    }

    record DryRunRequest(JsonNode trigger) {
    }

    @GetMapping("/api/v1/gadget-agents/{id}/runs")
    @Operation(summary = "Run history, newest first; actions=true adds each run's actions and cost (as the single "
            + "run's view), at most 50 runs then")
    List<RunView> history(Caller caller, @PathVariable String id, @RequestParam(defaultValue = "50") int limit,
            @RequestParam(defaultValue = "false") boolean actions) {
        agents.current(caller.accountId(), id);
        int max = actions ? 50 : 500;
        return runs.list(id, Math.max(1, Math.min(limit, max))).stream().map(run -> view(run, actions)).toList();
    }

    @GetMapping("/api/v1/runs/{runId}")
    RunView run(Caller caller, @PathVariable String runId) {
        return runs.find(runId).filter(run -> run.ownerId().equals(caller.accountId())).map(run -> view(run, true))
                .orElseThrow(() -> Refusal.notFound("run"));
    }

    @GetMapping("/api/v1/gadget-agents/{id}/decisions")
    @Operation(summary = "Why it did or did not run: every trigger evaluation with a reason code")
    List<RunStore.Decision> decisions(Caller caller, @PathVariable String id,
            @RequestParam(defaultValue = "100") int limit) {
        agents.current(caller.accountId(), id);
        return runs.decisions(id, Math.max(1, Math.min(limit, 1000)));
    }

    // ---------------------------------------------------------------- analysts' run history

    /** A finished run in the analysts' history: whose, which agent, how it ended. */
    record FinishedView(String id, String ownerId, String agentId, String agentName, String kind, String status,
            String reason, String triggerKind, String eventId, boolean proactive, Instant createdAt,
            Instant endedAt, Long durationMs) {
    }

    record FinishedPage(List<FinishedView> runs, String next) {
    }

    /** One finished run with everything that explains it: actions, cost, its ledger entries, an llm transcript. */
    record FinishedDetail(FinishedView run, RunView detail, List<RunStore.Decision> decisions) {
    }

    @GetMapping("/api/v1/analyst/runs")
    @Operation(summary = "Analysts: finished runs of every owner, newest first, with RingZero's outcome",
            description = "Filters: agent, gadget (its event came from it or an action went to it), status "
                    + "(repeat or comma-separate), from (inclusive) and to (exclusive) ISO-8601 instants of the run's "
                    + "creation; limit 1-200 (default 50), cursor = the previous page's next. Analysts (and the "
                    + "administrator) only: with a token, or from Cockpit with the webapp's own login. A wrong filter "
                    + "is 400 invalid-filter.")
    FinishedPage finished(Caller caller, @RequestParam(required = false) String agent,
            @RequestParam(required = false) String gadget, @RequestParam(required = false) List<String> status,
            @RequestParam(required = false) String from, @RequestParam(required = false) String to,
            @RequestParam(required = false) String limit, @RequestParam(required = false) String cursor) {
        analystOnly(caller);
        Instant since = QueryFilters.instant(from, "from");
        Instant until = QueryFilters.instant(to, "to");
        if (since != null && until != null && !since.isBefore(until)) {
            throw QueryFilters.invalid("'from' (" + since + ") must be before 'to' (" + until + ")");
        }
        int size = QueryFilters.limit(limit, 50, 200);
        QueryFilters.Keyset after = QueryFilters.keyset(cursor);
        List<RunStore.Finished> found = runs.finished(new RunStore.FinishedQuery(QueryFilters.id(agent, "agent", 36),
                QueryFilters.id(gadget, "gadget", 64), HistoryFilters.statuses(status), since, until,
                after == null ? null : after.at(), after == null ? null : after.id(), size + 1));
        List<FinishedView> page = found.stream().limit(size).map(RunController::finishedView).toList();
        String next = null;
        if (found.size() > size) {
            FinishedView last = page.get(page.size() - 1);
            next = new QueryFilters.Keyset(last.createdAt(), last.id()).text();
        }
        return new FinishedPage(page, next);
    }

    @GetMapping("/api/v1/analyst/runs/{runId}")
    @Operation(summary = "Analysts: one run of any owner with its actions, cost, ledger entries and llm transcript")
    FinishedDetail finishedRun(Caller caller, @PathVariable String runId) {
        analystOnly(caller);
        RunStore.Run run = runs.find(runId).orElseThrow(() -> Refusal.notFound("run"));
        String name = agents.find(run.agentId()).map(current -> current.agent().name()).orElse(null);
        RunView detail = view(run, true);
        return new FinishedDetail(finishedView(new RunStore.Finished(run, name, detail.session() == null ? "rules"
                : "llm")), detail, runs.decisionsOfRun(runId));
    }

    private static void analystOnly(Caller caller) {
        if (caller.role() != Caller.Role.ANALYST && caller.role() != Caller.Role.ADMIN) {
            throw Refusal.forbidden("forbidden", "the run history of every owner is for analysts");
        }
    }

    private static FinishedView finishedView(RunStore.Finished finished) {
        RunStore.Run run = finished.run();
        Long duration = run.startedAt() != null && run.endedAt() != null
                ? Duration.between(run.startedAt(), run.endedAt()).toMillis() : null;
        return new FinishedView(run.id(), run.ownerId(), run.agentId(), finished.agentName(), finished.kind(),
                run.status().wire(), run.reason(), run.triggerKind(), run.eventId(), run.proactive(), run.createdAt(),
                run.endedAt(), duration);
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
