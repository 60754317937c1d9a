package dev.ringzero.gates;

import java.time.Clock;

import dev.ringzero.Refusal;
import org.springframework.stereotype.Component;

/**
 * A human's decision on a pending gate, recorded exactly once: whoever completes the review task
 * first (Tasklist or REST) wins the compare-and-set; a second or concurrent decision is a conflict,
 * so its task completion rolls back. A denial resolves the gate; an approval goes on to execution.
 */
@Component
class GateDecisions {

    private final GateStore store;
    private final GateEngine process;
    private final Audit audit;
    private final Journal journal;
    private final GateResolved resolved;
    private final Clock clock;

    GateDecisions(GateStore store, GateEngine process, Audit audit, Journal journal, GateResolved resolved,
            Clock clock) {
        this.store = store;
        this.process = process;
        this.audit = audit;
        this.journal = journal;
        this.resolved = resolved;
        this.clock = clock;
    }

    /** The REST desk: completes the same review task Tasklist shows, as the owner. */
    Gate decideAsOwner(String ownerId, String gateId, boolean approve, String note) {
        Gate gate = store.findOwned(ownerId, gateId).orElseThrow(() -> Refusal.notFound("gate"));
        if (gate.state() != GateState.PENDING || gate.processInstanceId() == null) {
            throw notPending(gate);
        }
        if (!process.completeReview(gate, ownerId, approve, note)) {
            throw notPending(store.find(gateId).orElseThrow());
        }
        return store.find(gateId).orElseThrow();
    }

    /** The review task completed, inside the engine's transaction. */
    void record(String gateId, boolean approve, String decidedBy, String note) {
        GateState to = approve ? GateState.APPROVED : GateState.DENIED;
        if (!store.decide(gateId, to, decidedBy, note, clock.instant())) {
            throw notPending(store.find(gateId).orElseThrow());
        }
        Gate gate = store.find(gateId).orElseThrow();
        audit.record(gate, approve ? Audit.Disposition.APPROVED : Audit.Disposition.DENIED, decidedBy, note);
        journal.append(gate.agentId(), gate.ownerId(), Journal.Actor.DESK, approve ? "gate.approved" : "gate.denied",
                gate.id(), gate.runId(), (approve ? "Approved" : "Denied") + " by " + decidedBy
                        + (note == null || note.isBlank() ? "" : ": " + note), null);
        if (!approve) {
            resolved.resolved(gate);
        }
    }

    private static Refusal notPending(Gate gate) {
        return Refusal.conflict("gate-not-pending", "gate " + gate.id() + " is " + gate.state().wire());
    }
}
