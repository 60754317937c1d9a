package dev.ringzero.policy;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.ringzero.kernel.Lease;
import dev.ringzero.kernel.MoverLease;
import dev.ringzero.kernel.Subject;
import org.springframework.stereotype.Component;

/**
 * Ring 0's mover arbitration on the dispatch path ({@link MoverLease}): one mover per gadget at a
 * time, each move bounded (at most 10 s), a stop always passing and freeing the gadget. The mover
 * is who asks: the person, one agent (whichever of its runs; its next move renews its lease), or
 * one approved gate. A lease ends when its move is answered or expires, when a stop is sent, or
 * by its bound. Leases are in memory, per node, like the speaker floor: a restart frees every
 * gadget, and the firmware's own limit (a rover stops after at most 10 s) holds meanwhile.
 */
@Component
public class Movers {

    /** A move on its way: whose lease it runs under. */
    private record Move(String gadgetId, String ticket) {
    }

    private final MoverLease leases;
    private final Map<String, Move> moves = new ConcurrentHashMap<>();

    public Movers() {
        this(new MoverLease());
    }

    Movers(MoverLease leases) {
        this.leases = leases;
    }

    /** Takes (or renews) the gadget for {@code subject}'s move of {@code duration}, cut to the bound. */
    public Lease take(Subject subject, String gadgetId, Duration duration, Instant now) {
        return leases.acquire(gadgetId, ticket(subject), duration, now);
    }

    /** The move {@code invocationId} left under {@code subject}'s lease; it ends with the invocation. */
    public void moving(String invocationId, Subject subject, String gadgetId) {
        moves.put(invocationId, new Move(gadgetId, ticket(subject)));
    }

    /** The invocation was answered, expired or never left: a move's lease ends now. */
    public void ended(String invocationId) {
        Move move = moves.remove(invocationId);
        if (move != null) {
            leases.release(move.gadgetId(), move.ticket());
        }
    }

    /** A stop is on its way to the gadget: whoever was moving it no longer holds it. */
    public void stopping(String gadgetId, Instant now) {
        leases.stop(gadgetId, now);
    }

    /** Who moves: the person, an agent (all its runs), or an approved gate. */
    static String ticket(Subject subject) {
        if (subject instanceof Subject.AgentRun run) {
            return "agent:" + run.agentId();
        }
        if (subject instanceof Subject.ApprovedGate gate) {
            return "gate:" + gate.gateId();
        }
        return "owner:" + subject.accountId();
    }
}
