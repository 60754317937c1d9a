package dev.ringzero.workflow;

import dev.ringzero.agents.llm.LlmSessions;
import dev.ringzero.agents.llm.SessionWake;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
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
        // a suspended instance is not woken; the turn's record keeps it due, and the sweep tries
        // again once it is active
        return engine.getCommandExecutorTxRequired().execute(
                context -> MessageWaits.wakeWithNothing(context, message) != MessageWaits.Woken.SUSPENDED);
    }
}
