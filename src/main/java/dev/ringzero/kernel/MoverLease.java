package dev.ringzero.kernel;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One mover at a time per gadget, for a bounded time. Two agents steering one rover is a hazard, and a
 * move with no end is one too, so every lease expires (at most 10 s by default; a longer request is cut
 * to the bound: a mover whose answer never comes holds the gadget no longer than that). An expired
 * lease is free. Stopping always goes through: {@link #stop} ends whatever lease is held, and
 * {@link #release} never fails. The holder may renew by acquiring again. Thread-safe, no threads of its
 * own: time is passed in. What is held is kept in a {@link LeaseBook} (this node's memory by
 * default, the shared database in a cluster); the decisions are made here, whichever the book.
 */
public final class MoverLease {

    public static final Duration DEFAULT_MAX = Duration.ofSeconds(10);

    private final Duration max;
    private final LeaseBook book;

    public MoverLease() {
        this(DEFAULT_MAX);
    }

    public MoverLease(Duration max) {
        this(max, LeaseBook.inMemory());
    }

    public MoverLease(Duration max, LeaseBook book) {
        if (max.isNegative() || max.isZero()) {
            throw new IllegalArgumentException("the lease bound must be positive");
        }
        this.max = max;
        this.book = Objects.requireNonNull(book, "book");
    }

    /**
     * Takes (or renews) the gadget's mover lease for {@code duration}, cut to the bound. A renewal
     * never shortens the holder's lease: its earlier move may still be under way.
     */
    public Lease acquire(String gadgetId, String ticket, Duration duration, Instant now) {
        Require.text(gadgetId, "gadgetId");
        Require.text(ticket, "ticket");
        Objects.requireNonNull(now, "now");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("a move needs a positive duration");
        }
        Duration bounded = duration.compareTo(max) > 0 ? max : duration;
        AtomicReference<Lease> answer = new AtomicReference<>();
        book.change(gadgetId, recorded -> {
            Optional<LeaseBook.Entry> live = recorded.filter(held -> held.liveAt(now));
            if (live.isPresent() && !live.get().ticket().equals(ticket)) {
                answer.set(new Lease.Busy(live.get().ticket(), live.get().expiresAt()));
                return recorded;
            }
            Instant until = now.plus(bounded);
            if (live.isPresent() && live.get().expiresAt().isAfter(until)) {
                until = live.get().expiresAt(); // the holder's shorter renewal
            }
            answer.set(new Lease.Granted(ticket, until));
            return Optional.of(new LeaseBook.Entry(ticket, until));
        });
        return answer.get();
    }

    /** Ends {@code ticket}'s lease; a no-op for anyone else. Whether it held the lease record. */
    public boolean release(String gadgetId, String ticket) {
        Objects.requireNonNull(ticket, "ticket");
        AtomicReference<Boolean> released = new AtomicReference<>(false);
        book.change(gadgetId, recorded -> {
            boolean mine = recorded.filter(held -> held.ticket().equals(ticket)).isPresent();
            released.set(mine);
            return mine ? Optional.empty() : recorded;
        });
        return released.get();
    }

    /** Ends whatever lease the gadget has, whoever holds it; the ticket it stopped, if one was moving. */
    public Optional<String> stop(String gadgetId, Instant now) {
        Objects.requireNonNull(now, "now");
        return book.change(gadgetId, recorded -> Optional.empty()).filter(held -> held.liveAt(now))
                .map(LeaseBook.Entry::ticket);
    }

    /** The ticket moving the gadget at {@code now}, if any. */
    public Optional<String> holder(String gadgetId, Instant now) {
        return book.read(gadgetId).filter(held -> held.liveAt(now)).map(LeaseBook.Entry::ticket);
    }
}
