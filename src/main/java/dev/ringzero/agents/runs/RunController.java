package dev.ringzero.agents.runs;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.accounts.Caller;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.runs.RunViews.RunStarted;
import dev.ringzero.agents.runs.RunViews.RunView;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
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
    private final RunViews runs;
    private final DryRun dryRun;

    RunController(AgentService agents, RunViews runs, DryRun dryRun) {
        this.agents = agents;
        this.runs = runs;
        this.dryRun = dryRun;
    }

    @PostMapping("/api/v1/gadget-agents/{id}/runs")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(summary = "Run it now: an explicit run (not blocked by proactive budgets); answers with the run id",
            description = "The run starts once the node's waiting device events are routed, at most "
                    + "ringzero.runs.invoke-yield-to-events (1 s) later: a gadget's reaction comes first.")
    RunStarted runNow(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode input) {
        return runs.invoke(caller.accountId(), id, input);
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
        return runs.history(caller.accountId(), id, limit, actions);
    }

    @GetMapping("/api/v1/runs/{runId}")
    RunView run(Caller caller, @PathVariable String runId) {
        return runs.run(caller.accountId(), runId);
    }

    @GetMapping("/api/v1/gadget-agents/{id}/decisions")
    @Operation(summary = "Why it did or did not run: every trigger evaluation with a reason code")
    List<RunStore.Decision> decisions(Caller caller, @PathVariable String id,
            @RequestParam(defaultValue = "100") int limit) {
        return runs.decisions(caller.accountId(), id, limit);
    }
}
