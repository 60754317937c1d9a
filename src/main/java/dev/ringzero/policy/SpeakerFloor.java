package dev.ringzero.policy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import dev.ringzero.kernel.Claim;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.SpeakerArbiter;
import dev.ringzero.kernel.Turn;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Ring 0's speaker floor: the kernel's {@link SpeakerArbiter} (one sound at a time per gadget,
 * the person first, stale background sound dropped) bound to the link. A sound command holds the
 * floor from its grant until the device reports playback ended ({@code speaker_idle} with its
 * invocation id), or its invocation ends without playing (failed, unknown, refused), or a
 * safety bound passes. What happens on each turn is the {@link TurnListener}'s business.
 *
 * <p>Where the floor is kept is {@code ringzero.cluster.enabled}'s choice. Off (the default), in
 * this node's memory: nothing is paid for a cluster that is not there, and after a restart waiting
 * requests are gone (their runs time out or are re-requested and judged stale). On, in the shared
 * database: each gadget's speaker in {@code rz_speaker_line} ({@link DatabaseSpeakerBook}) and the
 * sounds playing in {@code rz_speaker_hold} ({@link DatabaseSpeakerHolds}), so every node arbitrates
 * a gadget alike, an end of playback frees the speaker whichever node it reaches, and the turns it
 * makes are told by that node (waking a run is a message to the engine, which any node serves).
 *
 * <p>Bound: nobody holds a speaker longer than {@link #MAX_HOLD} since its grant or the start of
 * its playback, whichever is later; every node sweeps every 5 s, so a speaker whose news never came
 * (the device's end of playback lost, or the node that held it, or the node that was to wake its
 * next holder, died) is free at most 2 min 5 s after that, whichever node survives.
 *
 * <p>The floor follows the transaction of the step that uses it: a release or an end of playback
 * takes effect when that step commits, and a claim or a hold made by a step that rolls back is
 * given back. Under load a batch of steps that fails is rolled back and done again step by step;
 * without this, its first attempt would have freed speakers (and woken waiting runs) for sounds
 * that were never recorded as over, or kept a claim for a run that never started. Turns are told
 * to the {@link TurnListener} on a thread of their own, in order: waking a run is a transaction of
 * its own, never part of (or after the end of) the step that freed the speaker.
 *
 * <p>In the database each change is a short transaction of its own (as the mover leases'), not a
 * part of the step's: joining the step would give a rollback for free but hold the gadget's row
 * lock to the step's end, and the person's direct sound waits for its device's answer, so every
 * other request, release and pre-emption of that gadget, on every node, would wait as long. The
 * same rule then serves both books: the undo on rollback and the release on commit below. Its
 * price: another node sees a claim before its step commits (a request may queue behind a claim
 * that is given back; the give-back hands the speaker on as any release does). A change locks one
 * row and waits for no step, so it cannot deadlock with one.
 */
@Component
public class SpeakerFloor {

    /** Acts on the turns a release or an interaction produced (wake a waiting run, record a drop). */
    public interface TurnListener {
        void onTurns(String gadgetId, List<Turn> turns);
    }

    /**
     * A speaker held longer than this since its grant or the start of its playback is freed, so a
     * lost event or a dead node cannot block it.
     */
    static final Duration MAX_HOLD = Duration.ofMinutes(2);
    private static final int TURN_LANES = 4;

    private final SpeakerArbiter arbiter;
    private final SpeakerHolds holds;
    private final Clock clock;
    /** Looked up when turns happen: the listeners themselves depend on the floor. */
    private final Supplier<Stream<TurnListener>> listeners;
    /**
     * Lanes for telling turns: a gadget always on the same single thread, so its turns are told in
     * the order they happened; several lanes, so one gadget's slow wake-up holds up only the gadgets
     * that share its lane.
     */
    private final List<ExecutorService> turnLanes = IntStream
            .range(0, TURN_LANES).mapToObj(lane -> Executors.newSingleThreadExecutor(runnable -> {
                Thread thread = new Thread(runnable, "speaker-turns-" + lane);
                thread.setDaemon(true);
                return thread;
            })).toList();

    @Autowired
    SpeakerFloor(Clock clock, ObjectProvider<TurnListener> listeners,
            @Value("${ringzero.speaker.stale-after:PT30S}") Duration staleAfter,
            @Value("${ringzero.cluster.enabled:false}") boolean cluster, JdbcClient jdbc,
            PlatformTransactionManager transactions) {
        this(clock, listeners::orderedStream,
                cluster ? new SpeakerArbiter(staleAfter, new DatabaseSpeakerBook(jdbc, transactions))
                        : new SpeakerArbiter(staleAfter),
                cluster ? new DatabaseSpeakerHolds(jdbc, transactions) : SpeakerHolds.inMemory());
    }

    SpeakerFloor(Clock clock, Supplier<Stream<TurnListener>> listeners, SpeakerArbiter arbiter, SpeakerHolds holds) {
        this.arbiter = arbiter;
        this.holds = holds;
        this.clock = clock;
        this.listeners = listeners;
    }

    /**
     * Asks for the floor now; if the asking step rolls back, a claim it made is given back (one the
     * ticket already had, e.g. the grant that woke its run, stays).
     */
    public Claim request(String gadgetId, String ticket, Priority priority, Instant requestedAt) {
        boolean hadClaim = arbiter.claimedBy(gadgetId, ticket);
        Claim claim = arbiter.request(gadgetId, ticket, priority, requestedAt, clock.instant());
        if (!hadClaim && !(claim instanceof Claim.DroppedStale)) {
            onRollback(() -> releaseNow(gadgetId, ticket));
        }
        return claim;
    }

    /**
     * The granted ticket's sound was sent as this invocation: its end releases the floor, and the
     * bound on holding counts from now. Held at once (the device may report the end of playback as
     * soon as the step commits), let go if the step rolls back.
     */
    public void playing(String invocationId, String gadgetId, String ticket) {
        Instant now = clock.instant();
        holds.put(invocationId, new SpeakerHolds.Hold(gadgetId, ticket, now));
        onRollback(() -> holds.take(invocationId));
        arbiter.playing(gadgetId, ticket, now);
    }

    /** Releases a ticket that got the floor but sent nothing (refused, fenced). */
    public void release(String gadgetId, String ticket) {
        onCommit(() -> releaseNow(gadgetId, ticket));
    }

    /** The invocation is over for the speaker (played to the end, failed, or unknown). */
    public void ended(String invocationId) {
        onCommit(() -> holds.take(invocationId).ifPresent(hold -> releaseNow(hold.gadgetId(), hold.ticket())));
    }

    private void releaseNow(String gadgetId, String ticket) {
        announce(gadgetId, arbiter.release(gadgetId, ticket, clock.instant()));
    }

    /**
     * When the caller's transaction rolls back (nothing outside a transaction), last first: a
     * queued claim is withdrawn before the grant ahead of it is released, so the floor never
     * passes to a ticket of the same rolled-back step.
     */
    private void onRollback(Runnable undo) {
        if (!inTransaction()) {
            return;
        }
        @SuppressWarnings("unchecked")
        Deque<Runnable> undos = (Deque<Runnable>) TransactionSynchronizationManager.getResource(this);
        if (undos == null) {
            Deque<Runnable> fresh = new ArrayDeque<>();
            TransactionSynchronizationManager.bindResource(this, fresh);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    TransactionSynchronizationManager.unbindResourceIfPossible(SpeakerFloor.this);
                    if (status != STATUS_COMMITTED) {
                        fresh.forEach(Runnable::run); // pushed last first
                    }
                }
            });
            undos = fresh;
        }
        undos.push(undo);
    }

    /** Now, or when the caller's transaction commits (never, if it rolls back). */
    private static void onCommit(Runnable effect) {
        if (!inTransaction()) {
            effect.run();
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                effect.run();
            }
        });
    }

    private static boolean inTransaction() {
        return TransactionSynchronizationManager.isSynchronizationActive()
                && TransactionSynchronizationManager.isActualTransactionActive();
    }

    public void interactionStarted(String gadgetId) {
        announce(gadgetId, arbiter.interactionStarted(gadgetId, clock.instant()));
    }

    public void interactionEnded(String gadgetId) {
        announce(gadgetId, arbiter.interactionEnded(gadgetId, clock.instant()));
    }

    public Optional<String> holder(String gadgetId) {
        return arbiter.holder(gadgetId);
    }

    public List<String> waiting(String gadgetId) {
        return arbiter.waiting(gadgetId);
    }

    /**
     * Frees every speaker held longer than {@link #MAX_HOLD} without news, this node's or, in a
     * cluster, any node's: the class comment gives the bound.
     */
    @Scheduled(fixedDelayString = "PT5S")
    void releaseForgottenHolds() {
        Instant now = clock.instant();
        Instant limit = now.minus(MAX_HOLD);
        holds.forgetBefore(limit);
        for (String gadgetId : arbiter.heldBefore(limit)) {
            try {
                announce(gadgetId, arbiter.releaseHeldBefore(gadgetId, limit, now));
            } catch (RuntimeException e) {
                // one gadget's failure (the database busy, say) leaves the others' to this sweep
                LoggerFactory.getLogger(SpeakerFloor.class).warn("forgotten speaker of {} not freed: {}", gadgetId,
                        e.toString());
            }
        }
    }

    private void announce(String gadgetId, List<Turn> turns) {
        if (turns.isEmpty()) {
            return;
        }
        try {
            turnLanes.get(Math.floorMod(gadgetId.hashCode(), TURN_LANES)).execute(() -> listeners.get()
                    .forEach(listener -> {
                        try {
                            listener.onTurns(gadgetId, turns);
                        } catch (RuntimeException e) {
                            // the listener hands back each turn it cannot act on; never stop the lane
                            LoggerFactory.getLogger(SpeakerFloor.class)
                                    .warn("speaker turns of {} not handled: {}", gadgetId, e.toString());
                        }
                    }));
        } catch (RejectedExecutionException e) {
            // shutting down: nobody is left to wake
        }
    }

    @jakarta.annotation.PreDestroy
    void stop() {
        turnLanes.forEach(ExecutorService::shutdown);
    }
}
