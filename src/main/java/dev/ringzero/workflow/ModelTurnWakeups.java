package dev.ringzero.workflow;

import dev.ringzero.agents.llm.SessionWake;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.springframework.stereotype.Component;

/**
 * Wakes an llm run waiting for its model's turn ({@code Task_AwaitModelReply}) in the transaction
 * that recorded the turn ready or failed, on the thread that did: the run's next steps (its device
 * commands' dispatch, or its finish) run in that transaction too, so a turn's record and the run
 * moving on commit together. The wait is the execution the turn's record names ({@link
 * ExecutionWaits}); a turn recorded by an earlier version names none, and its run, waiting in an
 * older model, is ended at start ({@link RunLauncher#retireRunsOfOlderModels}), so nothing waits for
 * it here. Which turn waits is the record's to say: every turn waits in the same execution, and
 * the caller holds the turn's row (its conditional update, or {@code SessionStore#waitOfLatest}).
 * If the run's instance moved meanwhile (a cancellation), the commit fails on the engine's
 * optimistic lock and the caller tries its transaction again, when the record says what happened.
 */
@Component
class ModelTurnWakeups implements SessionWake {

    private final ProcessEngineConfigurationImpl engine;

    ModelTurnWakeups(ProcessEngineConfigurationImpl engine) {
        this.engine = engine;
    }

    @Override
    public boolean turnDone(String runId, int turn, String waitExecution) {
        // a suspended instance is not woken; the turn's record keeps it due, and the sweep tries
        // again once it is active
        return waitExecution == null || engine.getCommandExecutorTxRequired().execute(context -> ExecutionWaits.wake(
                context, waitExecution, ProcessIds.AWAIT_MODEL_REPLY, null) != ExecutionWaits.Woken.SUSPENDED);
    }
}
