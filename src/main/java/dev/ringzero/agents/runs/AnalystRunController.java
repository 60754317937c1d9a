package dev.ringzero.agents.runs;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.ringzero.QueryFilters;
import dev.ringzero.Refusal;
import dev.ringzero.accounts.Caller;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.runs.RunViews.RunView;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The analysts' run history: finished runs of every owner with RingZero's outcome (Cockpit's "Run history"). */
@RestController
@Tag(name = "runs", description = "explicit runs, run history and the decision ledger")
class AnalystRunController {

    private final AgentService agents;
    private final RunStore runs;
    private final RunViews views;

    AnalystRunController(AgentService agents, RunStore runs, RunViews views) {
        this.agents = agents;
        this.runs = runs;
        this.views = views;
    }

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
        List<FinishedView> page = found.stream().limit(size).map(AnalystRunController::finishedView).toList();
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
        RunView detail = views.detail(run);
        return new FinishedDetail(finishedView(new RunStore.Finished(run, name, detail.session() == null ? "rules"
                : "llm")), detail, runs.decisionsOfRun(runId));
    }

    private static void analystOnly(Caller caller) {
        if (!caller.readsEveryOwner()) {
            throw Refusal.forbidden("forbidden", "the run history of every owner is for analysts");
        }
    }

    static FinishedView finishedView(RunStore.Finished finished) {
        RunStore.Run run = finished.run();
        Long duration = run.startedAt() != null && run.endedAt() != null
                ? Duration.between(run.startedAt(), run.endedAt()).toMillis() : null;
        return new FinishedView(run.id(), run.ownerId(), run.agentId(), finished.agentName(), finished.kind(),
                run.status().wire(), run.reason(), run.triggerKind(), run.eventId(), run.proactive(), run.createdAt(),
                run.endedAt(), duration);
    }
}
