package dev.ringzero.agents.runs;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where a run stands: its next step (the next unsettled action, out of time, or done) and when
 * its {@code maxRunSeconds}, counted from its start, are over.
 */
final class RunProgress {

    private final RunStore runs;
    private final RunAgents agents;
    private final Clock clock;

    RunProgress(RunStore runs, RunAgents agents, Clock clock) {
        this.runs = runs;
        this.agents = agents;
        this.clock = clock;
    }

    /**
     * The next step: the first unsettled action while the run is running and within its
     * maxRunSeconds; otherwise the run is done (or out of time, with actions left).
     */
    AgentRuns.Next next(String runId) {
        RunStore.Run run = runs.find(runId).orElseThrow();
        if (run.status() != RunStatus.RUNNING) {
            return AgentRuns.Next.DONE;
        }
        if (unsettled(runs.actions(runId)).isEmpty()) {
            return AgentRuns.Next.DONE;
        }
        return overtime(run) ? AgentRuns.Next.TIMED_OUT : AgentRuns.Next.ACTION;
    }

    /** The first action without an outcome: the one the run dispatches or waits for. */
    static Optional<RunStore.Action> unsettled(List<RunStore.Action> actions) {
        return actions.stream().filter(action -> action.outcome() == null).findFirst();
    }

    /** When the run's maxRunSeconds (at least one), counted from its start, are over. */
    Instant deadline(RunStore.Run run) {
        Instant started = run.startedAt() == null ? run.createdAt() : run.startedAt();
        return started.plusSeconds(Math.max(1, agents.spec(run.agentId(), run.revision()).budget().maxRunSeconds()));
    }

    /** Whether the run's maxRunSeconds are over now. */
    boolean overtime(RunStore.Run run) {
        return !clock.instant().isBefore(deadline(run));
    }
}
