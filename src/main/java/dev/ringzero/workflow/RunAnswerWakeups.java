package dev.ringzero.workflow;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.ringzero.agents.runs.AgentRuns;
import dev.ringzero.gateway.Dispatcher;
import dev.ringzero.gateway.Outcome;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.impl.MessageCorrelationBuilderImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Wakes the run waiting for a device's answer, handing it the answer just recorded. Only the wait
 * for this very invocation is woken (its message is named after it): an answer that comes in the
 * grace second after its deadline, while the deadline's step moves the run on to the next action,
 * finds no wait with its name and wakes nothing. Under load the answer lane wakes whatever answers
 * have queued up by its turn (at most {@code ringzero.link.result-batch}) in one transaction.
 */
@Component
public class RunAnswerWakeups implements Dispatcher.AnswerListener {

    private static final Logger log = LoggerFactory.getLogger(RunAnswerWakeups.class);

    /** One run to wake: the answer to its invocation. */
    private record Wake(String invocationId, String runId, AgentRuns.Answer answer) {
    }

    private final RuntimeService runtime;
    private final EngineBatch batch;
    private final int batchSize;
    private final Queue<Wake> pending = new ConcurrentLinkedQueue<>();

    public RunAnswerWakeups(RuntimeService runtime, EngineBatch batch,
            @Value("${ringzero.link.result-batch:8}") int batchSize) {
        this.runtime = runtime;
        this.batch = batch;
        this.batchSize = Math.max(1, batchSize);
    }

    @Override
    public void answered(String invocationId, String runId, Outcome outcome) {
        if (runId == null) {
            return;
        }
        pending.add(new Wake(invocationId, runId, AgentRuns.Answer.of(outcome)));
        List<Wake> wakes = new ArrayList<>(batchSize);
        Wake next;
        while (wakes.size() < batchSize && (next = pending.poll()) != null) {
            wakes.add(next);
        }
        // a wake that fails (the deadline's timer took the run on meanwhile) changes nothing: the
        // answer is recorded, and the deadline's step settles the action from it
        batch.run(wakes, this::wake, (wake, e) -> log.info("the run waiting for {} was not woken: {}",
                wake.invocationId(), e.toString()));
    }

    private void wake(Wake wake) {
        // executionsOnly (public on the builder, not yet on its interface): a run's answer never
        // starts an instance, so the engine need not look for start events of that name. The
        // business key is redundant with the name but not for the database: it lets the engine's
        // query find the run by its index instead of walking every waiting execution (over 1 ms
        // a correlation with a few thousand runs waiting).
        ((MessageCorrelationBuilderImpl) runtime.createMessageCorrelation(linkResult(wake.invocationId())))
                .executionsOnly().processInstanceBusinessKey(wake.runId())
                .setVariables(RunVariables.answer(wake.answer())).correlateAll();
    }

    /** The message a run's wait for {@code invocationId} listens for (see Message_LinkResult). */
    static String linkResult(String invocationId) {
        return ProcessIds.MESSAGE_LINK_RESULT + ":" + invocationId;
    }
}
