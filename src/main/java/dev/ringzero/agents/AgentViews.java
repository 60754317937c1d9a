package dev.ringzero.agents;

import java.time.Clock;
import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.stereotype.Component;

/** An agent as its owner reads it, one shape for every door (REST, MCP). */
@Component
public class AgentViews {

    /** An agent as its owner reads it: the current spec and revision, switch, state, last run and budget. */
    public record AgentView(String id, String name, String kind, int revision, boolean enabled, JsonNode spec,
            JsonNode state, int stateVersion, Instant createdAt, Instant updatedAt, RunRecords.LastRun lastRun,
            BudgetView budget) {
    }

    /** Proactive budget: runs left in the rolling hour and when the next proactive run may start. */
    public record BudgetView(int runsLeftThisHour, Instant nextEligibleAt) {
    }

    private final RunRecords runs;
    private final ObjectMapper json;
    private final Clock clock;

    AgentViews(RunRecords runs, ObjectMapper json, Clock clock) {
        this.runs = runs;
        this.json = json;
        this.clock = clock;
    }

    public AgentView view(AgentService.CurrentAgent current) {
        AgentStore.Agent agent = current.agent();
        JsonNode state;
        try {
            state = json.readTree(agent.state());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            state = json.nullNode();
        }
        RunRecords.LastRun lastRun = runs.lastRun(agent.id()).orElse(null);
        var left = dev.ringzero.kernel.Budgets.left(KernelBudgets.of(current.spec()),
                runs.usage(agent.id(), clock.instant()), clock.instant());
        return new AgentView(agent.id(), agent.name(), current.spec().kind().json(), agent.currentRevision(),
                agent.enabled(), current.spec().toJson(), state, agent.stateVersion(), agent.createdAt(),
                agent.updatedAt(), lastRun, new BudgetView(left.runsLeftThisHour(), left.nextEligibleAt()));
    }
}
