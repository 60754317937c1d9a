package dev.ringzero.gates;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Exactly-once execution of an approved gate. The move to {@code executing} commits (a job of its
 * own) before the executor is called; from then on every look at the gate — a job retry, a device's
 * answer, the answer timer, the start-up reconciliation — reconciles from the executor's trace and
 * acts only if no attempt ever left the platform.
 */
@Component
class ExactlyOnce {

    private static final Logger log = LoggerFactory.getLogger(ExactlyOnce.class);

    private final GateStore store;
    private final IntentExecutors executors;
    private final GateSettlement settlement;
    private final Journal journal;
    private final TransactionTemplate transaction;
    private final Clock clock;

    ExactlyOnce(GateStore store, IntentExecutors executors, GateSettlement settlement, Journal journal,
            PlatformTransactionManager transactions, Clock clock) {
        this.store = store;
        this.executors = executors;
        this.settlement = settlement;
        this.journal = journal;
        this.transaction = new TransactionTemplate(transactions);
        this.clock = clock;
    }

    /** approved → executing; false when the gate is not approved (any more). */
    boolean begin(String gateId) {
        if (!store.transition(gateId, GateState.APPROVED, GateState.EXECUTING, null, clock.instant())) {
            log.info("gate {} is not approved any more; nothing to execute", gateId);
            return false;
        }
        Gate gate = store.find(gateId).orElseThrow();
        journal.append(gate.agentId(), gate.ownerId(), Journal.Actor.EXECUTOR, "gate.executing", gate.id(),
                gate.runId(), "Executing " + gate.intent() + " on the trusted side", null);
        return true;
    }

    /** Runs the executor of an executing gate: empty when it is settled (or was not executing), else the wait. */
    Optional<Duration> execute(String gateId) {
        Gate gate = store.find(gateId).orElseThrow();
        if (gate.state() != GateState.EXECUTING) {
            return Optional.empty();
        }
        return settlement.apply(gate, executors.of(gate).execute(gate));
    }

    /** Settles an executing gate from its executor's trace; whether it is settled now. */
    boolean reconcile(String gateId) {
        Gate gate = store.find(gateId).orElse(null);
        if (gate == null || gate.state() != GateState.EXECUTING) {
            return true;
        }
        IntentExecutor executor = executors.of(gate);
        Execution execution = executor.reconcile(gate);
        if (execution instanceof Execution.NotStarted) {
            execution = executor.execute(gate);
            if (execution instanceof Execution.InFlight inFlight) {
                executor.awaitOutcome(gate, inFlight.answerWithin());
                execution = executor.reconcile(gate);
            }
        }
        Execution settled = execution;
        return transaction.execute(status -> settlement.apply(gate, settled)).isEmpty();
    }

    /** A device answered an invocation: true when it was a gate's (now settled if it was executing). */
    boolean onDeviceAnswer(String invocationId) {
        Optional<Gate> gate = store.find(invocationId);
        gate.filter(found -> found.state() == GateState.EXECUTING).ifPresent(found -> reconcile(found.id()));
        return gate.isPresent();
    }

    /** The executing gates this node's start-up reconciliation must look at (not another node's auto gates). */
    List<Gate> executing() {
        return store.executingToReconcile();
    }
}
