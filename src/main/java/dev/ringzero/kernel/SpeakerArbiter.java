package dev.ringzero.kernel;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * One sound at a time per gadget, and the person first. Background speech from many agents would
 * otherwise talk over itself and over the person; this decides who holds each gadget's speaker.
 *
 * <ul>
 *   <li>A free speaker is granted at once. Otherwise requests wait in turn order: higher
 *       {@link Priority} first, then the oldest request, then arrival.</li>
 *   <li>{@link Priority#INTERACTION} (the owner's direct command path) never waits: it is granted at once
 *       and pre-empts the holder ({@link Claim.Preempted}). So does a gadget's interaction event
 *       ({@link #interactionStarted}); while an interaction is active, everything else waits.</li>
 *   <li>A waiting request older than the staleness bound (default 30 s; exactly 30 s is still fresh) is
 *       dropped rather than played late ({@link Turn.DroppedStale}), checked whenever the speaker changes
 *       hands and when a request arrives. Pre-empted and dropped sounds are never replayed.</li>
 *   <li>Only the holder's {@link #release} hands the speaker on; a late release from a pre-empted ticket
 *       merely withdraws it. Requests are idempotent per ticket, so a retried job cannot queue twice.</li>
 * </ul>
 *
 * Holding is not timed here: the dispatcher releases when the device answers or its command times out
 * (a timer in the process), and re-checks the kernel when a {@link Turn.Granted} wakes it, so fenced work
 * never plays. Thread-safe, with no threads of its own: time is passed in. State is in memory on purpose
 * (after a restart, waiters time out as stale); it serves the gadgets whose work runs on this node.
 */
public final class SpeakerArbiter {

    public static final Duration DEFAULT_STALE_AFTER = Duration.ofSeconds(30);

    private final Duration staleAfter;
    private final ConcurrentMap<String, SpeakerLine> lines = new ConcurrentHashMap<>();

    public SpeakerArbiter() {
        this(DEFAULT_STALE_AFTER);
    }

    public SpeakerArbiter(Duration staleAfter) {
        if (staleAfter.isNegative() || staleAfter.isZero()) {
            throw new IllegalArgumentException("the staleness bound must be positive");
        }
        this.staleAfter = staleAfter;
    }

    /** Asks for the speaker for {@code ticket}, first requested at {@code requestedAt}. */
    public Claim request(String gadgetId, String ticket, Priority priority, Instant requestedAt, Instant now) {
        Require.text(ticket, "ticket");
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(requestedAt, "requestedAt");
        Objects.requireNonNull(now, "now");
        return on(gadgetId, line -> line.request(ticket, priority, requestedAt, now));
    }

    /**
     * Frees the speaker if {@code ticket} holds it and returns what follows, in order: the stale requests
     * dropped, then the one granted next (none while an interaction is active). Never fails; anyone but
     * the holder only withdraws its own waiting request and changes nothing else.
     */
    public List<Turn> release(String gadgetId, String ticket, Instant now) {
        Objects.requireNonNull(ticket, "ticket");
        Objects.requireNonNull(now, "now");
        return on(gadgetId, line -> line.release(ticket, now));
    }

    /** The person started interacting (push-to-talk): the holder is pre-empted and background waits. */
    public List<Turn> interactionStarted(String gadgetId, Instant now) {
        Objects.requireNonNull(now, "now");
        return on(gadgetId, line -> line.interactionStarted(now));
    }

    /** The interaction ended: stale waiters are dropped and, if the speaker is free, the next is granted. */
    public List<Turn> interactionEnded(String gadgetId, Instant now) {
        Objects.requireNonNull(now, "now");
        return on(gadgetId, line -> line.interactionEnded(now));
    }

    /** Withdraws a waiting request (its run was fenced, say); whether it was waiting. Holders release. */
    public boolean cancel(String gadgetId, String ticket) {
        Objects.requireNonNull(ticket, "ticket");
        return on(gadgetId, line -> line.withdraw(ticket));
    }

    /** The ticket holding the speaker, if any. */
    public Optional<String> holder(String gadgetId) {
        return Optional.ofNullable(on(gadgetId, SpeakerLine::holder));
    }

    /** The waiting tickets in turn order. */
    public List<String> waiting(String gadgetId) {
        return on(gadgetId, SpeakerLine::waiting);
    }

    /** Whether the person is interacting with the gadget. */
    public boolean interactionActive(String gadgetId) {
        return on(gadgetId, SpeakerLine::interactionActive);
    }

    /** Runs one operation on a gadget's line atomically and forgets lines that fall idle. */
    private <T> T on(String gadgetId, Function<SpeakerLine, T> operation) {
        Require.text(gadgetId, "gadgetId");
        AtomicReference<T> result = new AtomicReference<>();
        lines.compute(gadgetId, (id, existing) -> {
            SpeakerLine line = existing != null ? existing : new SpeakerLine(staleAfter);
            result.set(operation.apply(line));
            return line.idle() ? null : line;
        });
        return result.get();
    }
}
