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
     * Ends the run with a status from its actions' outcomes, and, if its revision queues the
     * agent's runs, hands the turn to the oldest queued run of the agent (returned, so the engine
     * can wake it).
     */
    Optional<String> finish(String runId) {
        RunStore.Run run = runs.find(runId).orElseThrow();
        boolean handsOn = handsOn(agents, run);
        if (handsOn) {
            // the agent's row lock, as admission takes it, before this run ends: a run admitted
            // meanwhile either committed as queued before the read below (and gets the turn here) or
            // sees this run ended (and starts). Without it both could miss the other, and that queued
            // run and every one after it waited forever (the fault suite, after a restart's burst)
            agents.lock(run.agentId());
        }
        List<RunStore.Action> actions = runs.actions(runId);
        if (agents.spec(run.agentId(), run.revision()).kind() == AgentSpec.Kind.LLM) {
            // an llm run's actions are what its model asked for: a command the kernel refused was
            // the model's to hear (it did), not a failure of the run; what was sent still counts
            actions = actions.stream().filter(action -> !"denied".equals(action.outcome())).toList();
        }
        runs.end(runId, statusOf(actions), null, clock.instant());
        return handsOn ? nextTurn(handingOn(agents, runs.active(run.agentId()))) : Optional.empty();
    }

    /**
     * Whether {@code run} hands the turn on as it ends: only a run of a revision that queues its
     * agent's runs does. Admission queues a run only behind such runs ({@link RunAdmission}), so
     * no queued run ever waits for one that will not hand on, and the answer is the revision's,
     * which never changes: any other run's finish (the common rules run's) takes no lock and reads
     * no other run. A run of an older revision that did not queue goes on beside the first run of
     * a revision that does.
     */
    static boolean handsOn(RunAgents agents, RunStore.Run run) {
        return agents.spec(run.agentId(), run.revision()).concurrency() == AgentSpec.Concurrency.QUEUED;
    }

    /** Those of {@code runs} that hand the turn on as they end (see {@link #handsOn}). */
    static List<RunStore.Run> handingOn(RunAgents agents, List<RunStore.Run> runs) {
        return runs.stream().filter(run -> handsOn(agents, run)).toList();
    }

    /** Succeeded when every action did its part (or there were none), failed when none did, else partially. */
    static RunStatus statusOf(List<RunStore.Action> actions) {
        long good = actions.stream().filter(action -> action.outcome() != null && GOOD.contains(action.outcome())).count();
        return actions.isEmpty() || good == actions.size() ? RunStatus.SUCCEEDED
                : good == 0 ? RunStatus.FAILED : RunStatus.PARTIALLY_FAILED;
    }

    /**
     * The queued run whose turn it is among an agent's active runs that hand on (oldest first):
     * none while another of them still goes (a queued run readmitted after its cooldown while
     * this one ran), since its finish hands on.
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
