package dev.ringzero.router;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a board's own clock says about how long ago it sent an event. A {@code link.event} carries
 * the board's {@code uptime_ms} (milliseconds since it booted), not a time of day, so on its own it
 * says nothing about the event's age. A later event of the same board does: it was sent no later
 * than it arrived, and its uptime is the board's clock at that moment, so an event with uptime
 * {@code u} was sent at least {@code (now - later.arrived) + (later.uptime - u)} ago.
 *
 * <p>The bound needs nothing but the board's clock ticking at the rate of ours: no synchronised
 * clocks, no transit delay, and no reboot to detect (an event from before a reboot was sent before
 * the later boot began, which makes it older still). It is a lower bound, so it can only ever shed
 * an event that is truly stale. It matters after an outage: the broker delivers what it kept for
 * the platform in one burst, in the order each board sent it, so every event arrives at about the
 * same moment and the receipt time says nothing, while each board's newest event shows how stale
 * its older ones are. A board that sent only one event meanwhile gives nothing to compare: that
 * event's age is its time since it arrived, as before.
 *
 * <p>Only each board's latest arrival is kept, and only while it can matter: an arrival older than
 * the shed bound bounds only events that arrived before it, which are past the bound by their
 * receipt time alone.
 */
final class BoardClocks {

    /** A board's latest event: its uptime and when it arrived here. */
    private record Arrival(long uptimeMs, Instant arrivedAt) {
    }

    /** How many arrivals between two sweeps of the arrivals too old to matter. */
    private static final int SWEEP_EVERY = 1024;

    private final ConcurrentHashMap<String, Arrival> latest = new ConcurrentHashMap<>();
    private final AtomicInteger sinceSweep = new AtomicInteger();
    private final Duration keep;

    /** {@code keep}: the shed bound (an arrival older than that can no longer shed anything). */
    BoardClocks(Duration keep) {
        this.keep = keep;
    }

    /**
     * An event of the board arrived carrying {@code uptimeMs}. Called as each event arrives, before
     * it waits for its turn, so that the events waiting behind it are compared with it.
     */
    void arrived(String gadgetId, long uptimeMs, Instant arrivedAt) {
        latest.merge(gadgetId, new Arrival(uptimeMs, arrivedAt),
                (known, now) -> now.arrivedAt().isBefore(known.arrivedAt()) ? known : now);
        if (sinceSweep.incrementAndGet() >= SWEEP_EVERY) {
            sinceSweep.set(0);
            Instant horizon = arrivedAt.minus(keep);
            latest.values().removeIf(arrival -> arrival.arrivedAt().isBefore(horizon));
        }
    }

    /**
     * At least how long ago, as of {@code now}, the board sent the event whose uptime was
     * {@code uptimeMs}, going by the board's latest event ({@link Duration#ZERO} if that says nothing).
     * The event must have been passed to {@link #arrived} first.
     */
    Duration sentAtLeastAgo(String gadgetId, long uptimeMs, Instant now) {
        Arrival later = latest.get(gadgetId);
        if (later == null) {
            return Duration.ZERO;
        }
        long millis = Duration.between(later.arrivedAt(), now).toMillis() + (later.uptimeMs() - uptimeMs);
        return millis > 0 ? Duration.ofMillis(millis) : Duration.ZERO;
    }

    /** How many boards' latest arrivals are kept (for tests). */
    int size() {
        return latest.size();
    }
}
