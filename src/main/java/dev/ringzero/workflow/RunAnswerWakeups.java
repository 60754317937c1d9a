package dev.ringzero.workflow;

import dev.ringzero.agents.runs.AgentRuns;
import dev.ringzero.dispatch.AnswerListener;
import dev.ringzero.dispatch.RunWake;
import dev.ringzero.dispatch.Outcome;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.springframework.context.annotation.Lazy;
import org.springframework.stereotype.Component;

/**
 * Wakes the run waiting for a device's answer, handing it the answer just recorded, in the answer
 * lane's transaction (see {@link dev.ringzero.dispatch.AnswerLane#onResult}). The wait
 * ({@code Task_AwaitLinkResult}, a receive task with no message) is the execution the command's
 * record names, and is woken only while the command is awaited and unsettled ({@link
 * AgentRuns#waitFor}): an answer that comes in the grace second after its deadline, while the
 * deadline's step moves the run on to the next action, finds its action settled and wakes nothing.
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
        // a late answer finds its action settled, and wakes nothing; a suspended instance is not
        // woken, and its deadline's step reads the answer from the record once it is active again
        wake(runId, invocationId, RunVariables.answer(answer));
    }

    /**
     * The command's deadline passed and no answer woke its wait: the wait is woken with none, in
     * the caller's transaction, and Task_RecordOutcome settles the action as {@code unknown}
     * (never retried) unless the link recorded an answer meanwhile. An answer waking the same wait
     * at that moment waits for the action's row ({@link AgentRuns#waitFor}), or the sweep does, and
     * the second finds the action settled. A suspended instance is not woken; no wait at all means
     * it was answered meanwhile, or its instance is gone.
     */
    ExecutionWaits.Woken deadlinePassed(String runId, String invocationId) {
        return wake(runId, invocationId, null);
    }

    /** Wakes the wait the action's record names while it is awaited ({@link AgentRuns#waitFor}), with {@code answer}. */
    private ExecutionWaits.Woken wake(String runId, String invocationId, java.util.Map<String, Object> answer) {
        return runs.waitFor(runId, invocationId)
                .map(wait -> engine.getCommandExecutorTxRequired().execute(
                        context -> ExecutionWaits.wake(context, wait, ProcessIds.AWAIT_LINK_RESULT, answer)))
                .orElse(ExecutionWaits.Woken.NONE);
    }
}
