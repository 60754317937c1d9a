package dev.ringzero.gates;

import java.time.Clock;
import java.util.UUID;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * An action the trust ladder let through: recorded as an {@code auto} gate that is already
 * {@code executing}, committed before anything runs (the executor's trace is then keyed by a gate
 * that exists), executed at once, and for a device command awaited here, since no process waits
 * for its answer. Call it outside a transaction.
 */
@Component
class AutoExecution {

    private static final Logger log = LoggerFactory.getLogger(AutoExecution.class);

    private final GateProposals proposals;
    private final IntentExecutors executors;
    private final GateStore store;
    private final Journal journal;
    private final GateSettlement settlement;
    private final TransactionTemplate transaction;
    private final Clock clock;
    /** Where auto gates filed inside a run's step execute, after it commits (an email may take seconds). */
    private final ExecutorService workers = Executors.newFixedThreadPool(2, runnable -> {
        Thread thread = new Thread(runnable, "auto-gate");
        thread.setDaemon(true);
        return thread;
    });

    AutoExecution(GateProposals proposals, IntentExecutors executors, GateStore store, Journal journal,
            GateSettlement settlement, PlatformTransactionManager transactions, Clock clock) {
        this.proposals = proposals;
        this.executors = executors;
        this.store = store;
        this.journal = journal;
        this.settlement = settlement;
        this.transaction = new TransactionTemplate(transactions);
        this.clock = clock;
    }

    /** The gate as it ended; a device command still in flight after its wait stays {@code executing}. */
    Gate execute(GateService.Filing filing) {
        Gate gate = Gate.auto(UUID.randomUUID().toString(), proposals.freeze(filing), filing.ruleId(),
                clock.instant());
        transaction.executeWithoutResult(status -> record(gate));
        return perform(gate);
    }

    /**
     * In the caller's transaction (a rules run's step): records the {@code auto} gate there, and
     * executes it on a worker once that transaction commits. A rolled-back step leaves no gate and
     * sends nothing; a node that stops between the commit and the execution leaves the gate
     * {@code executing} with no pre-send record, and the reconciler ends it failed, never sent.
     */
    Gate executeAfterCommit(GateService.Filing filing) {
        Gate gate = Gate.auto(UUID.randomUUID().toString(), proposals.freeze(filing), filing.ruleId(),
                clock.instant());
        record(gate);
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                workers.execute(() -> {
                    try {
                        perform(gate);
                    } catch (RuntimeException e) {
                        log.warn("auto gate {} ({}) did not finish; the reconciler settles it: {}", gate.id(),
                                gate.intent(), e.toString());
                    }
                });
            }
        });
        return gate;
    }

    private void record(Gate gate) {
        store.insert(gate);
        journal.append(gate.agentId(), gate.ownerId(), Journal.Actor.KERNEL, "action.auto", gate.id(),
                gate.runId(), gate.intent() + " runs without asking (" + GateFiling.why(gate) + ")",
                gate.payload());
    }

    private Gate perform(Gate gate) {
        IntentExecutor executor = executors.of(gate);
        Execution execution = executor.execute(gate);
        if (execution instanceof Execution.InFlight inFlight) {
            executor.awaitOutcome(gate, inFlight.answerWithin());
            execution = executor.reconcile(gate);
        }
        Execution outcome = execution;
        transaction.executeWithoutResult(status -> settlement.apply(gate, outcome));
        return store.find(gate.id()).orElseThrow();
    }

    @PreDestroy
    void stop() {
        workers.shutdown();
    }
}
