package dev.ringzero.kernel;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One mover at a time per gadget, for a bounded time. Two agents steering one rover is a hazard, and a
 * move with no end is one too, so every lease expires (at most 10 s by default; a longer request is cut
 * to the bound: a mover whose answer never comes holds the gadget no longer than that). An expired
 * lease is free. Stopping always goes through: {@link #stop} ends whatever lease is held, and
 * {@link #release} never fails. The holder may renew by acquiring again. Thread-safe, no threads of its
 * own: time is passed in.
 */
public final class MoverLease {

    public static final Duration DEFAULT_MAX = Duration.ofSeconds(10);

    private record Held(String ticket, Instant expiresAt) {

        boolean liveAt(Instant now) {
            return now.isBefore(expiresAt);
        }
    }

    private final Duration max;
    private final ConcurrentMap<String, Held> leases = new ConcurrentHashMap<>();

    public MoverLease() {
        this(DEFAULT_MAX);
    }

    public MoverLease(Duration max) {
        if (max.isNegative() || max.isZero()) {
            throw new IllegalArgumentException("the lease bound must be positive");
        }
        this.max = max;
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
        leases.compute(gadgetId, (id, held) -> {
            if (held != null && held.liveAt(now) && !held.ticket().equals(ticket)) {
                answer.set(new Lease.Busy(held.ticket(), held.expiresAt()));
                return held;
            }
            Instant until = now.plus(bounded);
            if (held != null && held.liveAt(now) && held.expiresAt().isAfter(until)) {
                until = held.expiresAt(); // the holder's shorter renewal
            }
            Held granted = new Held(ticket, until);
            answer.set(new Lease.Granted(ticket, granted.expiresAt()));
            return granted;
        });
        return answer.get();
    }

    /** Ends {@code ticket}'s lease; a no-op for anyone else. Whether it held the lease record. */
    public boolean release(String gadgetId, String ticket) {
        Objects.requireNonNull(ticket, "ticket");
        AtomicReference<Boolean> released = new AtomicReference<>(false);
        leases.computeIfPresent(gadgetId, (id, held) -> {
            if (held.ticket().equals(ticket)) {
                released.set(true);
                return null;
            }
            return held;
        });
        return released.get();
    }

    /** Ends whatever lease the gadget has, whoever holds it; the ticket it stopped, if one was moving. */
    public Optional<String> stop(String gadgetId, Instant now) {
        Objects.requireNonNull(now, "now");
        return Optional.ofNullable(leases.remove(gadgetId)).filter(held -> held.liveAt(now)).map(Held::ticket);
    }

    /** The ticket moving the gadget at {@code now}, if any. */
    public Optional<String> holder(String gadgetId, Instant now) {
        return Optional.ofNullable(leases.get(gadgetId)).filter(held -> held.liveAt(now)).map(Held::ticket);
    }
}
