package dev.ringzero.workflow;

import java.util.List;

import dev.ringzero.agents.runs.AgentRuns;
import dev.ringzero.dispatch.AnswerListener;
import dev.ringzero.dispatch.RunWake;
import dev.ringzero.dispatch.Outcome;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.persistence.entity.EventSubscriptionEntity;
import org.springframework.context.annotation.Lazy;
import org.springframework.stereotype.Component;

/**
 * Wakes the run waiting for a device's answer, handing it the answer just recorded, in the answer
 * lane's transaction (see {@link dev.ringzero.dispatch.AnswerLane#onResult}). Only the wait for this very invocation is
 * woken (its message is named after it): an answer that comes in the grace second after its
 * deadline, while the deadline's step moves the run on to the next action, finds no wait with its
 * name and wakes nothing.
 */
@Component
public class RunAnswerWakeups implements RunWake {

    private final ProcessEngineConfigurationImpl engine;
    private final AgentRuns runs;
    private final QueuedTurns turns;

    // @Lazy, as RunLauncher's: the runs' wiring (dispatcher, gate desk, continuations) need not
    // exist before the answer lane's wakes do
    public RunAnswerWakeups(ProcessEngineConfigurationImpl engine, @Lazy AgentRuns runs, QueuedTurns turns) {
        this.engine = engine;
        this.runs = runs;
        this.turns = turns;
    }

    @Override
    public void answered(String invocationId, String runId, Outcome outcome) {
        if (runId == null) {
            return;
        }
        AgentRuns.Answer answer = AgentRuns.Answer.of(outcome);
        // Most answers are to a detached last command (its instance ended as it left): the record's
        // conditional update settles it, and the engine is not asked for a wait that is not there.
        // An awaited command is never settled so (its action has no answer deadline in the record).
        AgentRuns.DetachedAnswer detached = runs.answeredUnawaited(runId, invocationId, answer);
        if (detached.settled()) {
            detached.nextTurn().ifPresent(turns::turnCame);
            return;
        }
        String message = linkResult(invocationId);
        // found by its name (MessageWaits); a late answer finds no wait and settles nothing
        engine.getCommandExecutorTxRequired().execute(context -> {
            List<EventSubscriptionEntity> waits = MessageWaits.named(context, message);
            for (EventSubscriptionEntity wait : waits) {
                wait.eventReceived(RunVariables.answer(answer), null, null, null, false);
            }
            return null;
        });
    }

    /**
     * The command's deadline passed and no answer woke its wait (Catch_LinkResult): the wait is
     * woken with none, in the caller's transaction, and Task_RecordOutcome settles the action as
     * {@code unknown} (never retried) unless the link recorded an answer meanwhile. An answer
     * waking the same wait at that moment makes one of the two commits fail on the engine's
     * optimistic lock; the sweep tries again, and finds it settled. A suspended instance is not
     * woken; no wait at all means it was answered meanwhile, or its instance is gone.
     */
    MessageWaits.Woken deadlinePassed(String invocationId) {
        return engine.getCommandExecutorTxRequired()
                .execute(context -> MessageWaits.wakeWithNothing(context, linkResult(invocationId)));
    }

    /** The message a run's wait for {@code invocationId} listens for (see Message_LinkResult). */
    static String linkResult(String invocationId) {
        return ProcessIds.MESSAGE_LINK_RESULT + ":" + invocationId;
    }
}
