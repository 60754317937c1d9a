package dev.ringzero.policy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.ringzero.kernel.Claim;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.SpeakerArbiter;
import dev.ringzero.kernel.Turn;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Ring 0's speaker floor: the kernel's {@link SpeakerArbiter} (one sound at a time per gadget,
 * the person first, stale background sound dropped) bound to the link. A sound command holds the
 * floor from its grant until the device reports playback ended ({@code speaker_idle} with its
 * invocation id), or its invocation ends without playing (failed, unknown, refused), or a
 * safety bound passes. What happens on each turn is the {@link TurnListener}'s business.
 *
 * <p>The floor is in memory, per node: the gadgets whose work runs here. After a restart waiting
 * requests are gone (their runs time out or are re-requested and judged stale).
 *
 * <p>The floor follows the transaction of the step that uses it: a release or an end of playback
 * takes effect when that step commits, and a claim or a hold made by a step that rolls back is
 * given back. Under load a batch of steps that fails is rolled back and done again step by step;
 * without this, its first attempt would have freed speakers (and woken waiting runs) for sounds
 * that were never recorded as over, or kept a claim for a run that never started. Turns are told
 * to the {@link TurnListener} on a thread of their own, in order: waking a run is a transaction of
 * its own, never part of (or after the end of) the step that freed the speaker.
 */
@Component
public class SpeakerFloor {

    /** Acts on the turns a release or an interaction produced (wake a waiting run, record a drop). */
    public interface TurnListener {
        void onTurns(String gadgetId, List<Turn> turns);
    }

    /** A sound held longer than this without news is released, so a lost event cannot block a speaker. */
    static final Duration MAX_HOLD = Duration.ofMinutes(2);
    private static final int TURN_LANES = 4;

    private final SpeakerArbiter arbiter;
    private final Clock clock;
    /** Looked up when turns happen: the listeners themselves depend on the floor. */
    private final ObjectProvider<TurnListener> listeners;
    private final Map<String, Hold> holds = new ConcurrentHashMap<>();
    /**
     * Lanes for telling turns: a gadget always on the same single thread, so its turns are told in
     * the order they happened; several lanes, so one gadget's slow wake-up holds up only the gadgets
     * that share its lane.
     */
    private final java.util.List<java.util.concurrent.ExecutorService> turnLanes = java.util.stream.IntStream
            .range(0, TURN_LANES).mapToObj(lane -> java.util.concurrent.Executors.newSingleThreadExecutor(runnable -> {
                Thread thread = new Thread(runnable, "speaker-turns-" + lane);
                thread.setDaemon(true);
                return thread;
            })).toList();

    private record Hold(String gadgetId, String ticket, Instant since) {
    }

    SpeakerFloor(Clock clock, ObjectProvider<TurnListener> listeners,
            @org.springframework.beans.factory.annotation.Value("${ringzero.speaker.stale-after:PT30S}")
            Duration staleAfter) {
        this.arbiter = new SpeakerArbiter(staleAfter);
        this.clock = clock;
        this.listeners = listeners;
    }

    /**
     * Asks for the floor now; if the asking step rolls back, a claim it made is given back (one the
     * ticket already had, e.g. the grant that woke its run, stays).
     */
    public Claim request(String gadgetId, String ticket, Priority priority, Instant requestedAt) {
        boolean hadClaim = arbiter.holder(gadgetId).filter(ticket::equals).isPresent()
                || arbiter.waiting(gadgetId).contains(ticket);
        Claim claim = arbiter.request(gadgetId, ticket, priority, requestedAt, clock.instant());
        if (!hadClaim && !(claim instanceof Claim.DroppedStale)) {
            onRollback(() -> releaseNow(gadgetId, ticket));
        }
        return claim;
    }

    /**
     * The granted ticket's sound was sent as this invocation: its end releases the floor. Held at
     * once (the device may report the end of playback as soon as the step commits), let go if the
     * step rolls back.
     */
    public void playing(String invocationId, String gadgetId, String ticket) {
        holds.put(invocationId, new Hold(gadgetId, ticket, clock.instant()));
        onRollback(() -> holds.remove(invocationId));
    }

    /** Releases a ticket that got the floor but sent nothing (refused, fenced). */
    public void release(String gadgetId, String ticket) {
        onCommit(() -> releaseNow(gadgetId, ticket));
    }

    /** The invocation is over for the speaker (played to the end, failed, or unknown). */
    public void ended(String invocationId) {
        onCommit(() -> {
            Hold hold = holds.remove(invocationId);
            if (hold != null) {
                releaseNow(hold.gadgetId(), hold.ticket());
            }
        });
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
        java.util.Deque<Runnable> undos = (java.util.Deque<Runnable>) TransactionSynchronizationManager.getResource(this);
        if (undos == null) {
            java.util.Deque<Runnable> fresh = new java.util.ArrayDeque<>();
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

    @Scheduled(fixedDelayString = "PT5S")
    void releaseForgottenHolds() {
        Instant limit = clock.instant().minus(MAX_HOLD);
        holds.entrySet().removeIf(entry -> {
            if (entry.getValue().since().isBefore(limit)) {
                releaseNow(entry.getValue().gadgetId(), entry.getValue().ticket());
                return true;
            }
            return false;
        });
    }

    private void announce(String gadgetId, List<Turn> turns) {
        if (turns.isEmpty()) {
            return;
        }
        try {
            turnLanes.get(Math.floorMod(gadgetId.hashCode(), TURN_LANES)).execute(() -> listeners.orderedStream()
                    .forEach(listener -> {
                        try {
                            listener.onTurns(gadgetId, turns);
                        } catch (RuntimeException e) {
                            // the listener hands back each turn it cannot act on; never stop the lane
                            org.slf4j.LoggerFactory.getLogger(SpeakerFloor.class)
                                    .warn("speaker turns of {} not handled: {}", gadgetId, e.toString());
                        }
                    }));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // shutting down: nobody is left to wake
        }
    }

    @jakarta.annotation.PreDestroy
    void stop() {
        turnLanes.forEach(java.util.concurrent.ExecutorService::shutdown);
    }
}
