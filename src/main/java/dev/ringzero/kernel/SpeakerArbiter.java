package dev.ringzero.kernel;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
 * never plays; {@link #releaseHeldBefore} frees a holder whose news never came, by a bound the caller
 * keeps. Thread-safe, with no threads of its own: time is passed in. Each gadget's state is kept in a
 * {@link SpeakerBook} as a {@link SpeakerState} and changed there atomically: in this node's memory by
 * default (after a restart, waiters time out as stale), in the shared database in a cluster, so every
 * node decides a gadget's speaker alike. The decisions are made here, whichever the book.
 */
public final class SpeakerArbiter {

    public static final Duration DEFAULT_STALE_AFTER = Duration.ofSeconds(30);

    private final Duration staleAfter;
    private final SpeakerBook book;

    public SpeakerArbiter() {
        this(DEFAULT_STALE_AFTER);
    }

    public SpeakerArbiter(Duration staleAfter) {
        this(staleAfter, SpeakerBook.inMemory());
    }

    public SpeakerArbiter(Duration staleAfter, SpeakerBook book) {
        if (staleAfter.isNegative() || staleAfter.isZero()) {
            throw new IllegalArgumentException("the staleness bound must be positive");
        }
        this.staleAfter = staleAfter;
        this.book = Objects.requireNonNull(book, "book");
    }

    /** Asks for the speaker for {@code ticket}, first requested at {@code requestedAt}. */
    public Claim request(String gadgetId, String ticket, Priority priority, Instant requestedAt, Instant now) {
        Require.text(ticket, "ticket");
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(requestedAt, "requestedAt");
        Objects.requireNonNull(now, "now");
        return change(gadgetId, line -> line.request(ticket, priority, requestedAt, now));
    }

    /**
     * Frees the speaker if {@code ticket} holds it and returns what follows, in order: the stale requests
     * dropped, then the one granted next (none while an interaction is active). Never fails; anyone but
     * the holder only withdraws its own waiting request and changes nothing else.
     */
    public List<Turn> release(String gadgetId, String ticket, Instant now) {
        Objects.requireNonNull(ticket, "ticket");
        Objects.requireNonNull(now, "now");
        return change(gadgetId, line -> line.release(ticket, now));
    }

    /**
     * The holder's sound started playing at {@code now}: a bound on holding counts from here, not
     * from the grant. Whether {@code ticket} holds the speaker (a no-op otherwise).
     */
    public boolean playing(String gadgetId, String ticket, Instant now) {
        Objects.requireNonNull(ticket, "ticket");
        Objects.requireNonNull(now, "now");
        return change(gadgetId, line -> line.playing(ticket, now));
    }

    /**
     * Frees the speaker if whoever holds it has held it (granted, or playing) since before
     * {@code limit}, and hands it on as {@link #release} does; nothing otherwise. For a holder whose
     * news never came: its node died, or the device's end of playback was lost.
     */
    public List<Turn> releaseHeldBefore(String gadgetId, Instant limit, Instant now) {
        Objects.requireNonNull(limit, "limit");
        Objects.requireNonNull(now, "now");
        return change(gadgetId, line -> line.releaseHeldBefore(limit, now));
    }

    /** The gadgets whose speaker has been held since before {@code limit}. */
    public List<String> heldBefore(Instant limit) {
        return book.heldBefore(Objects.requireNonNull(limit, "limit"));
    }

    /** The person started interacting (push-to-talk): the holder is pre-empted and background waits. */
    public List<Turn> interactionStarted(String gadgetId, Instant now) {
        Objects.requireNonNull(now, "now");
        return change(gadgetId, line -> line.interactionStarted(now));
    }

    /** The interaction ended: stale waiters are dropped and, if the speaker is free, the next is granted. */
    public List<Turn> interactionEnded(String gadgetId, Instant now) {
        Objects.requireNonNull(now, "now");
        return change(gadgetId, line -> line.interactionEnded(now));
    }

    /** Withdraws a waiting request (its run was fenced, say); whether it was waiting. Holders release. */
    public boolean cancel(String gadgetId, String ticket) {
        Objects.requireNonNull(ticket, "ticket");
        return change(gadgetId, line -> line.withdraw(ticket));
    }

    /** The ticket holding the speaker, if any. */
    public Optional<String> holder(String gadgetId) {
        return Optional.ofNullable(read(gadgetId).holder());
    }

    /** The waiting tickets in turn order. */
    public List<String> waiting(String gadgetId) {
        return read(gadgetId).waiting();
    }

    /** Whether the person is interacting with the gadget. */
    public boolean interactionActive(String gadgetId) {
        return read(gadgetId).interactionActive();
    }

    /** Whether {@code ticket} holds the gadget's speaker or waits for it. */
    public boolean claimedBy(String gadgetId, String ticket) {
        Objects.requireNonNull(ticket, "ticket");
        return read(gadgetId).claimedBy(ticket);
    }

    private SpeakerLine read(String gadgetId) {
        Require.text(gadgetId, "gadgetId");
        return book.read(gadgetId).map(state -> SpeakerLine.of(state, staleAfter))
                .orElseGet(() -> new SpeakerLine(staleAfter));
    }

    /**
     * Runs one operation on a gadget's line in one atomic change of the book; a line that falls
     * idle is no entry. The operation may run again if the book retries: it starts from the
     * recorded state each time, and the answer is that of the run that was stored.
     */
    private <T> T change(String gadgetId, Function<SpeakerLine, T> operation) {
        Require.text(gadgetId, "gadgetId");
        AtomicReference<T> result = new AtomicReference<>();
        book.change(gadgetId, recorded -> {
            SpeakerLine line = recorded.map(state -> SpeakerLine.of(state, staleAfter))
                    .orElseGet(() -> new SpeakerLine(staleAfter));
            result.set(operation.apply(line));
            return line.idle() ? Optional.empty() : Optional.of(line.state());
        });
        return result.get();
    }
}
