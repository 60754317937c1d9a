package dev.ringzero.gates;

import java.time.Clock;
import java.util.UUID;

import org.springframework.stereotype.Component;
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

    private final GateProposals proposals;
    private final IntentExecutors executors;
    private final GateStore store;
    private final Journal journal;
    private final GateSettlement settlement;
    private final TransactionTemplate transaction;
    private final Clock clock;

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
        transaction.executeWithoutResult(status -> {
            store.insert(gate);
            journal.append(gate.agentId(), gate.ownerId(), Journal.Actor.KERNEL, "action.auto", gate.id(),
                    gate.runId(), gate.intent() + " runs without asking (" + GateFiling.why(gate) + ")",
                    gate.payload());
        });
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
}
