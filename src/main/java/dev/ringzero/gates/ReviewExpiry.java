package dev.ringzero.gates;

import java.time.Clock;

import org.springframework.stereotype.Component;

/** The review timer fired: a gate still pending ends {@code expired}; one decided meanwhile is left alone. */
@Component
class ReviewExpiry {

    private final GateStore store;
    private final Audit audit;
    private final Journal journal;
    private final GateResolved resolved;
    private final Clock clock;

    ReviewExpiry(GateStore store, Audit audit, Journal journal, GateResolved resolved, Clock clock) {
        this.store = store;
        this.audit = audit;
        this.journal = journal;
        this.resolved = resolved;
        this.clock = clock;
    }

    void expire(String gateId) {
        if (!store.transition(gateId, GateState.PENDING, GateState.EXPIRED, null, clock.instant())) {
            return;
        }
        Gate gate = store.find(gateId).orElseThrow();
        audit.record(gate, Audit.Disposition.EXPIRED, "system:timer", "nobody answered in time");
        journal.append(gate.agentId(), gate.ownerId(), Journal.Actor.DESK, "gate.expired", gate.id(), gate.runId(),
                "Expired: nobody answered in time", null);
        resolved.resolved(gate);
    }
}
