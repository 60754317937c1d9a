package dev.ringzero.agents.runs;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.ringzero.agents.definition.AgentSpec;

/**
 * How runs end: finished with a status from their actions' outcomes (and the agent's next queued
 * run's turn), out of time, abandoned with a replaced model, or fenced while queued.
 */
final class RunEnding {

    /** Outcomes a run counts as done: a gated action is not a failure, the gate carries the rest. */
    private static final Set<String> GOOD = Set.of("completed", "accepted", "gated", "dropped_stale");

    private final RunStore runs;
    private final RunAgents agents;
    private final Clock clock;

    RunEnding(RunStore runs, RunAgents agents, Clock clock) {
        this.runs = runs;
        this.agents = agents;
        this.clock = clock;
    }

    /**
     * Ends the run with a status from its actions' outcomes, and hands the turn to the oldest
     * queued run of the agent, if any (returned, so the engine can wake it).
     */
    Optional<String> finish(String runId) {
        RunStore.Run run = runs.find(runId).orElseThrow();
        // the agent's row lock, as admission takes it, before this run ends: a run admitted
        // meanwhile either committed as queued before the read below (and gets the turn here) or
        // sees this run ended (and starts). Without it both could miss the other, and that queued
        // run and every one after it waited forever (the fault suite, after a restart's burst)
        agents.lock(run.agentId());
        List<RunStore.Action> actions = runs.actions(runId);
        if (agents.spec(run.agentId(), run.revision()).kind() == AgentSpec.Kind.LLM) {
            // an llm run's actions are what its model asked for: a command the kernel refused was
            // the model's to hear (it did), not a failure of the run; what was sent still counts
            actions = actions.stream().filter(action -> !"denied".equals(action.outcome())).toList();
        }
        runs.end(runId, statusOf(actions), null, clock.instant());
        return mayHaveQueued(run) ? nextTurn(runs.active(run.agentId())) : Optional.empty();
    }

    /**
     * Whether a run of the agent may wait for its turn now (asked under the agent's lock): only
     * under the queued concurrency mode, the finishing run's or the agent's current revision's. A
     * run is queued only by that mode; a revision, disable or delete fences the agent's queued
     * runs in its own transaction, under this lock, and admission fences a run of an older
     * revision. Any other agent's finish reads none of its runs again (the rules run's common case).
     */
    private boolean mayHaveQueued(RunStore.Run run) {
        if (agents.spec(run.agentId(), run.revision()).concurrency() == AgentSpec.Concurrency.QUEUED) {
            return true;
        }
        return agents.stored(run.agentId()).map(agent -> agents.spec(agent.id(), agent.currentRevision()).concurrency()
                == AgentSpec.Concurrency.QUEUED).orElse(false);
    }

    /** Succeeded when every action did its part (or there were none), failed when none did, else partially. */
    static RunStatus statusOf(List<RunStore.Action> actions) {
        long good = actions.stream().filter(action -> action.outcome() != null && GOOD.contains(action.outcome())).count();
        return actions.isEmpty() || good == actions.size() ? RunStatus.SUCCEEDED
                : good == 0 ? RunStatus.FAILED : RunStatus.PARTIALLY_FAILED;
    }

    /**
     * The queued run whose turn it is among an agent's active runs (oldest first): none while
     * another run still goes (admitted before a revision to queued), since its finish hands on.
     */
    static Optional<String> nextTurn(List<RunStore.Run> active) {
        if (active.stream().anyMatch(other -> other.status() != RunStatus.QUEUED)) {
            return Optional.empty();
        }
        return active.stream().map(RunStore.Run::id).findFirst();
    }

    /** maxRunSeconds passed: the run ends failed; whatever was sent stays as the device answers it. */
    void timedOut(String runId) {
        runs.end(runId, RunStatus.FAILED, "max_run_seconds", clock.instant());
    }

    /**
     * Ends a run whose process instance was cancelled because its model was replaced (a platform
     * upgrade): it ends {@code failed}, and whatever it had sent stays as the device answers it.
     */
    boolean abandon(String runId, String reason) {
        return runs.end(runId, RunStatus.FAILED, reason, clock.instant());
    }

    /**
     * Ends the waiting runs (queued, cooling) of an agent whose policy changed (disabled, revised,
     * deleted); returns them.
     */
    List<String> fenceQueued(String agentId, String reason) {
        List<String> fenced = new ArrayList<>();
        for (RunStore.Run run : runs.waiting(agentId)) {
            if (runs.end(run.id(), RunStatus.FENCED, reason, clock.instant())) {
                fenced.add(run.id());
            }
        }
        return fenced;
    }
}
