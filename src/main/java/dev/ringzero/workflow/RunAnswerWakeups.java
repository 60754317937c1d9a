package dev.ringzero.workflow;

import java.time.Duration;
import java.util.Map;

import dev.ringzero.TriedAgain;
import dev.ringzero.agents.llm.LlmSettings;
import dev.ringzero.agents.runs.AgentRuns;
import dev.ringzero.agents.runs.DevicesFirst;
import dev.ringzero.dispatch.RunWake;
import dev.ringzero.dispatch.Outcome;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Lazy;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Wakes the run waiting for a device's answer, handing it the answer just recorded, in the answer
 * lane's transaction (see {@link dev.ringzero.dispatch.AnswerLane#onResult}); an llm session's run
 * after that transaction commits, once the node's device events had their turn. The wait
 * ({@code Task_AwaitLinkResult}, a receive task with no message) is the execution the command's
 * record names, and is woken only while the command is awaited and unsettled ({@link
 * AgentRuns#waitFor}): an answer that comes in the grace second after its deadline, while the
 * deadline's step moves the run on to the next action, finds its action settled and wakes nothing.
 */
@Component
public class RunAnswerWakeups implements RunWake {

    private static final Logger log = LoggerFactory.getLogger(RunAnswerWakeups.class);
    /**
     * How long a session's wake waits for a slot after the devices before it goes on beside
     * another's: nobody waits for it, and its answer's deadline sweep wakes the run anyway.
     */
    static final Duration WAKE_PATIENCE = Duration.ofSeconds(10);

    private final ProcessEngineConfigurationImpl engine;
    private final AgentRuns runs;
    private final QueuedTurns turns;
    private final DevicesFirst devicesFirst;
    private final TransactionTemplate transactions;
    private final Duration sessionYield;

    // @Lazy, as RunLauncher's: the runs' wiring (dispatcher, gate desk, continuations) need not
    // exist before the answer lane's wakes do
    public RunAnswerWakeups(ProcessEngineConfigurationImpl engine, @Lazy AgentRuns runs, QueuedTurns turns,
            DevicesFirst devicesFirst, TransactionTemplate transactions, LlmSettings llm) {
        this.engine = engine;
        this.runs = runs;
        this.turns = turns;
        this.devicesFirst = devicesFirst;
        this.transactions = transactions;
        // a session's answer yields as its replies do (ringzero.llm.yield-to-events)
        this.sessionYield = llm.yieldToEvents();
    }

    /**
     * In the caller's transaction (the answer lane's), or in one of its own when there is none (an
     * answer recorded alone, after its batch failed): the action's row lock that finds the wait
     * ({@link AgentRuns#waitFor}) must hold until the wait is woken, or the deadline sweep could
     * move the run on to its next command in between, and this answer wake that command's wait.
     */
    @Override
    public void answered(String invocationId, String runId, Outcome outcome, boolean atOnce) {
        if (runId != null) {
            transactions.executeWithoutResult(status -> answeredHere(invocationId, runId, outcome, atOnce));
        }
    }

    private void answeredHere(String invocationId, String runId, Outcome outcome, boolean atOnce) {
        AgentRuns.Answer answer = AgentRuns.Answer.of(outcome);
        // Most answers are to a detached last command (its instance ended as it left): the record's
        // conditional update settles it, and the engine is not asked for a wait that is not there.
        // An awaited command is never settled so (its action has no answer deadline in the record).
        AgentRuns.DetachedAnswer detached = runs.answeredUnawaited(runId, invocationId, answer);
        if (detached.settled()) {
            detached.nextTurn().ifPresent(turns::turnCame);
            return;
        }
        Map<String, Object> variables = RunVariables.answer(answer);
        if (!atOnce && runs.isSession(runId)) {
            // An llm session's command: waking its run settles the action and asks the model's next
            // turn (the conversation read), the costliest step an answer wakes. Fifty sessions in
            // step have their commands answered together, so it is done after the answer commits,
            // after this node's device events (agents.runs.DevicesFirst), as their replies are.
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    devicesFirst.later(sessionYield, WAKE_PATIENCE,
                            () -> wakeAfterTheDevices(runId, invocationId, variables));
                }
            });
            return;
        }
        // a late answer finds its action settled, and wakes nothing; a suspended instance is not
        // woken, and its deadline's step reads the answer from the record once it is active again
        wake(runId, invocationId, variables);
    }

    /**
     * A session's wake handed over by {@link #answered}: in a transaction of its own, tried again
     * if it fails (the deadline sweep or a cancellation moved the instance at the same moment; the
     * next try finds the action settled and wakes nothing). A wake never done (the node stopped,
     * every try failed) is the answer's deadline sweep's: it wakes the wait with no answer, and
     * the step reads the one the record kept ({@code Task_RecordOutcome}).
     */
    private void wakeAfterTheDevices(String runId, String invocationId, Map<String, Object> answer) {
        try {
            TriedAgain.inTransaction(transactions, "the wake of run " + runId,
                    () -> wake(runId, invocationId, answer));
        } catch (RuntimeException e) {
            log.info("the run {} was not woken by answer {}; its deadline sweep does it: {}", runId, invocationId,
                    e.toString());
        }
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
    private ExecutionWaits.Woken wake(String runId, String invocationId, Map<String, Object> answer) {
        return runs.waitFor(runId, invocationId)
                .map(wait -> engine.getCommandExecutorTxRequired().execute(
                        context -> ExecutionWaits.wake(context, wait, ProcessIds.AWAIT_LINK_RESULT, answer)))
                .orElse(ExecutionWaits.Woken.NONE);
    }
}
