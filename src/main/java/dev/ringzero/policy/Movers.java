package dev.ringzero.policy;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.ringzero.kernel.Lease;
import dev.ringzero.kernel.MoverLease;
import dev.ringzero.kernel.Subject;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Ring 0's mover arbitration on the dispatch path ({@link MoverLease}): one mover per gadget at a
 * time, each lease bounded (at most 10 s), a stop always passing and freeing the gadget. The mover
 * is who asks: the person, one agent (whichever of its runs; its next move renews its lease), or
 * one approved gate. A lease ends when the last of its mover's moves on their way is answered, when
 * a stop is sent, or by its bound; a move whose waiter gave up while the device may still be
 * moving (a run's deadline) is left to that bound.
 *
 * <p>The leases are in the shared database ({@link DatabaseLeaseBook}), so every node of a cluster
 * arbitrates a gadget alike and a stop sent from any node frees it. Which moves are on their way
 * is this node's knowledge: an answer that reaches another node (the broker spreads answers over
 * the nodes) or a node that dies leaves its mover's lease to the bound, and a restart no longer
 * frees a gadget sooner; the firmware's own limit (a rover stops after at most 10 s) is the same.
 *
 * <p>Synchronized: a mover's renewal and the end of its earlier move must not interleave, or the
 * lease would end under the new move. Each change of the book is a short transaction of its own
 * and never waits for another step's locks, so holding the monitor across it cannot deadlock.
 */
@Component
public class Movers {

    /** A move on its way: whose lease it runs under, and when that lease, as it was granted, lapses. */
    private record Move(String gadgetId, String ticket, Instant leaseEnds) {

        /** Another move of the same mover that still holds the gadget at {@code now}. */
        boolean holdsWith(Move other, Instant now) {
            return gadgetId.equals(other.gadgetId()) && ticket.equals(other.ticket()) && leaseEnds.isAfter(now);
        }
    }

    private final MoverLease leases;
    private final Map<String, Move> moves = new ConcurrentHashMap<>();

    /** One node's leases, in memory: for tests of the arbitration itself. */
    public Movers() {
        this(new MoverLease());
    }

    @Autowired
    Movers(JdbcClient jdbc, PlatformTransactionManager transactions) {
        this(new MoverLease(MoverLease.DEFAULT_MAX, new DatabaseLeaseBook(jdbc, transactions)));
    }

    Movers(MoverLease leases) {
        this.leases = leases;
    }

    /**
     * Takes (or renews) the gadget for {@code subject}'s move {@code invocationId}, which the device
     * may take {@code timeout} to answer (the lease asks for as long, cut to the bound); granted, the
     * move is on its way until it is {@link #ended} or its lease lapses. A move whose waiter gave up
     * (a run's deadline, a direct command's wait) is not ended: the device may still be moving it.
     */
    public synchronized Lease take(String invocationId, Subject subject, String gadgetId, Duration timeout,
            Instant now) {
        // moves whose lease lapsed hold nothing any more (given up on, answered on another node)
        moves.values().removeIf(move -> !move.leaseEnds().isAfter(now));
        String ticket = ticket(subject);
        Lease lease = leases.acquire(gadgetId, ticket, timeout, now);
        if (lease instanceof Lease.Granted granted) {
            moves.put(invocationId, new Move(gadgetId, ticket, granted.expiresAt()));
        }
        return lease;
    }

    /**
     * The move was answered, or never left: its mover's lease ends unless another of its moves on
     * its way still holds the gadget.
     */
    public void ended(String invocationId, Instant now) {
        // every answer comes here and most are no move: no lock for them (a move is registered
        // before it is published, so its answer always finds it)
        if (!moves.containsKey(invocationId)) {
            return;
        }
        synchronized (this) {
            Move move = moves.remove(invocationId);
            if (move != null && moves.values().stream().noneMatch(other -> other.holdsWith(move, now))) {
                leases.release(move.gadgetId(), move.ticket());
            }
        }
    }

    /** A stop is on its way to the gadget (its step committed): whoever was moving it no longer holds it. */
    public synchronized void stopping(String gadgetId, Instant now) {
        leases.stop(gadgetId, now);
        moves.values().removeIf(move -> move.gadgetId().equals(gadgetId)); // stopped: none is on its way
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
