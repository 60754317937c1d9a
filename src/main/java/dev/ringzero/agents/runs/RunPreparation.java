package dev.ringzero.agents.runs;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.StoredJson;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.agents.definition.Templates;

/**
 * Prepares a run (step {@code Task_PrepareRun}): decides whether it starts now, renders every
 * action's parameters from the run's template context and records them.
 */
final class RunPreparation {

    private final RunStore runs;
    private final RunAgents agents;
    private final ObjectMapper json;
    private final Clock clock;

    RunPreparation(RunStore runs, RunAgents agents, ObjectMapper json, Clock clock) {
        this.runs = runs;
        this.agents = agents;
        this.json = json;
        this.clock = clock;
    }

    /**
     * Renders every action's parameters and records them; false when the run has nothing to do
     * (fenced or cancelled while it waited for its turn, or prepared already). A run
     * {@code justAdmitted} in this transaction was recorded running there; a queued run whose
     * turn came starts here.
     */
    boolean prepare(String runId, boolean justAdmitted) {
        Instant now = clock.instant();
        RunStatus status = runs.find(runId).map(RunStore.Run::status).orElse(null);
        boolean starts = justAdmitted ? status == RunStatus.RUNNING
                : status == RunStatus.QUEUED && runs.transition(runId, RunStatus.QUEUED, RunStatus.RUNNING, null, now);
        if (!starts) {
            return false;
        }
        RunStore.Run run = runs.find(runId).orElseThrow();
        AgentSpec spec = agents.spec(run.agentId(), run.revision());
        Map<String, Object> trigger = trigger(run);
        Map<String, Object> context = templateContext(run, trigger);
        List<RunStore.NewAction> actions = new ArrayList<>();
        for (AgentSpec.Action action : spec.actionsFor(trigger)) {
            Map<String, Object> params = Templates.renderParams(action.params(), context);
            actions.add(new RunStore.NewAction(action.gadget(), action.command(), StoredJson.write(json, params)));
        }
        runs.insertActions(runId, actions, now);
        return true;
    }

    /**
     * The action as it should be sent: a rules run's command that comes after a state write is
     * rendered again, now, so its templates read the state that write left ({@code {{state.count}}}
     * after {@code state.increment}); the record is updated to what is sent. Any other action is
     * sent as prepared.
     */
    RunStore.Action renderAgain(RunStore.Run run, RunStore.Action action) {
        AgentSpec spec = agents.spec(run.agentId(), run.revision());
        Map<String, Object> trigger = trigger(run);
        List<AgentSpec.Action> written = spec.actionsFor(trigger);
        int firstWrite = AgentSpec.firstStateWrite(written);
        if (spec.kind() != AgentSpec.Kind.RULES || firstWrite < 0 || action.index() <= firstWrite
                || action.index() >= written.size()) {
            return action;
        }
        Map<String, Object> params = Templates.renderParams(written.get(action.index()).params(),
                templateContext(run, trigger));
        String rendered = StoredJson.write(json, params);
        if (rendered.equals(action.params())) {
            return action;
        }
        runs.actionParams(run.id(), action.index(), rendered);
        return runs.actions(run.id()).get(action.index());
    }

    /** The run's trigger as stored (an event, a schedule's tick, an invocation, a gate's outcome). */
    private Map<String, Object> trigger(RunStore.Run run) {
        return run.triggerData() == null ? Map.of() : StoredJson.map(json, run.triggerData());
    }

    /** What the run's templates may read: its trigger, the run itself and the agent's state. */
    Map<String, Object> templateContext(RunStore.Run run) {
        return templateContext(run, trigger(run));
    }

    private Map<String, Object> templateContext(RunStore.Run run, Map<String, Object> trigger) {
        return TemplateContext.of(trigger, run.id(), run.revision(), run.agentId(), agents.state(run.agentId()));
    }
}
