package dev.ringzero.workflow;

import org.camunda.bpm.engine.RuntimeService;
import org.springframework.stereotype.Component;

/** Wakes a queued run whose turn came (its {@code Catch_AgentTurn}), whoever finished the run before it. */
@Component
class QueuedTurns {

    private final RuntimeService runtime;

    QueuedTurns(RuntimeService runtime) {
        this.runtime = runtime;
    }

    void turnCame(String runId) {
        runtime.createMessageCorrelation(ProcessIds.MESSAGE_AGENT_TURN).processInstanceBusinessKey(runId)
                .correlateAll();
    }
}
