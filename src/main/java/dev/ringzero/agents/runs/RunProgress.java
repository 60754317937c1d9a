package dev.ringzero.agents.runs;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.ringzero.agents.definition.AgentSpec;

/**
 * Where a run stands: its next step (the next unsettled action, out of time, or done) and when
 * its {@code maxRunSeconds}, counted from its start, are over.
 */
final class RunProgress {

    private final RunStore runs;
    private final RunAgents agents;
    private final ModelSessions sessions;
    private final Clock clock;

    RunProgress(RunStore runs, RunAgents agents, ModelSessions sessions, Clock clock) {
        this.runs = runs;
        this.agents = agents;
        this.sessions = sessions;
        this.clock = clock;
    }

    /**
     * The next step: the first unsettled action while the run is running and within its
     * maxRunSeconds; for an llm run with every action settled, the model's next turn if its
     * session wants one; otherwise the run is done (or out of time, with work left).
     */
    AgentRuns.Next next(String runId) {
        RunStore.Run run = runs.find(runId).orElseThrow();
        if (run.status() != RunStatus.RUNNING) {
            return AgentRuns.Next.DONE;
        }
        if (unsettled(runs.actions(runId)).isEmpty()) {
            if (kind(run) != AgentSpec.Kind.LLM) {
                return AgentRuns.Next.DONE;
            }
            if (overtime(run)) {
                return AgentRuns.Next.TIMED_OUT;
            }
            return sessions.wantsTurn(run) ? AgentRuns.Next.MODEL : AgentRuns.Next.DONE;
        }
        return overtime(run) ? AgentRuns.Next.TIMED_OUT : AgentRuns.Next.ACTION;
    }

    /** The kind of agent the run runs (its revision's). */
    AgentSpec.Kind kind(RunStore.Run run) {
        return agents.spec(run.agentId(), run.revision()).kind();
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
