package dev.ringzero.workflow;

import java.util.List;

import dev.ringzero.agents.llm.LlmSessions;
import dev.ringzero.agents.llm.SessionWake;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.persistence.entity.EventSubscriptionEntity;
import org.springframework.stereotype.Component;

/**
 * Wakes an llm run waiting for its model's turn ({@code Catch_ModelReply}) in the transaction that
 * recorded the turn ready or failed, on the thread that did: the run's next steps (its device
 * commands' dispatch, or its finish) run in that transaction too, so a turn's record and the run
 * moving on commit together. As {@link RunAnswerWakeups} does, the wait is found by its message's
 * name ({@link MessageWaits}). If the run's instance moved meanwhile (the deadline sweep, a
 * cancellation), the commit fails on the engine's optimistic lock and the caller tries its
 * transaction again, when the record says what happened.
 */
@Component
class ModelTurnWakeups implements SessionWake {

    private final ProcessEngineConfigurationImpl engine;

    ModelTurnWakeups(ProcessEngineConfigurationImpl engine) {
        this.engine = engine;
    }

    @Override
    public boolean turnDone(String runId, int turn) {
        String message = ProcessIds.MESSAGE_MODEL_REPLY + ":" + new LlmSessions.Asked(runId, turn).key();
        return engine.getCommandExecutorTxRequired().execute(context -> {
            List<EventSubscriptionEntity> waits = MessageWaits.named(context, message);
            // a suspended instance is not woken (a correlation would not find it either); the
            // turn's record keeps it due, and the sweep tries again once it is active
            if (waits.stream().anyMatch(wait -> wait.getExecution().isSuspended())) {
                return false;
            }
            for (EventSubscriptionEntity wait : waits) {
                wait.eventReceived(null, null, null, null, false);
            }
            return true;
        });
    }
}
