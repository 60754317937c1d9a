package dev.ringzero.workflow;

import dev.ringzero.agents.llm.SessionWake;
import org.camunda.bpm.engine.RuntimeService;
import org.springframework.stereotype.Component;

/**
 * Wakes an llm run waiting for its model's turn ({@code Catch_ModelReply}), on the worker thread
 * that played the turn: the run's next steps (its device commands' dispatch) run in this
 * correlation's transaction. A wake that finds no wait (the deadline moved the run on, or a
 * concurrent step held the instance) is tried again a few times; the turn's deadline wakes the run
 * in the end whatever happens here, and the run reads the turn's record then.
 */
@Component
class ModelTurnWakeups implements SessionWake {

    private static final long[] RETRY_MILLIS = {20, 100, 400, 1_500};

    private final RuntimeService runtime;

    ModelTurnWakeups(RuntimeService runtime) {
        this.runtime = runtime;
    }

    @Override
    public void turnDone(String runId, int turn) {
        String message = ProcessIds.MESSAGE_MODEL_REPLY + ":" + runId + ":" + turn;
        for (int attempt = 0; ; attempt++) {
            try {
                if (!runtime.createMessageCorrelation(message).correlateAllWithResult().isEmpty()) {
                    return;
                }
            } catch (RuntimeException e) {
                // e.g. optimistic locking against the run's deadline: try again, the record decides
            }
            if (attempt >= RETRY_MILLIS.length) {
                return;
            }
            try {
                Thread.sleep(RETRY_MILLIS[attempt]);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
