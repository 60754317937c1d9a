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
 * <p>That needs no synchronised clocks and no transit delay, and it holds across a reboot between
 * the two events (the earlier event was sent before the later boot began, so it is older still).
 * It does need the two uptimes to be one clock's, the later event sent after the earlier one:
 * a board's events arrive in the order it sent them (one MQTT connection, QoS 1). Two things break
 * that, and both show as the uptime going backwards from one arrival to the next: an old copy
 * delivered again after newer events (taken care of too: redelivered copies are not arrivals
 * here), and a second connection under the same gadget id with a clock of its own (a maker's
 * debugging tool). After the uptime went backwards, for whatever reason, the board's clock is not
 * used for {@link #DISTRUST}; events are as old as their time since arrival, as without it. A
 * second clock not yet seen to go backwards against the board's (its first event after a day of
 * the board's silence, or since this node started, followed by one of the board's) can still make
 * its event look older than it is: the reference firmware sends no {@code uptime_ms} from a
 * second connection for that reason.
 *
 * <p>It matters after an outage: the broker delivers what it kept for the platform in one burst,
 * in the order each board sent it, so every event arrives at about the same moment and the receipt
 * time says nothing, while each board's newest event shows how stale its older ones are. A board
 * that sent only one event meanwhile gives nothing to compare, and neither does an event whose
 * turn comes before its board's newer events arrive.
 *
 * <p>Arrivals are told from one thread (the link's), in the order they arrive; ages are asked from
 * any. Each board's latest arrival is kept for {@link #RETAIN}, so that a clock going backwards is
 * seen even after a quiet while.
 */
final class BoardClocks {

    /** How long a board's clock is not used after its uptime went backwards. */
    static final Duration DISTRUST = Duration.ofDays(1);
    /** How long a board's latest arrival is kept after it came. */
    static final Duration RETAIN = Duration.ofDays(1);
    /** How many arrivals between two sweeps of the boards not heard from for {@link #RETAIN}. */
    private static final int SWEEP_EVERY = 1024;

    /** A board's latest event (its uptime and when it arrived here), and from when its clock is used. */
    private record Board(long uptimeMs, Instant arrivedAt, Instant trustedFrom) {
    }

    private final ConcurrentHashMap<String, Board> boards = new ConcurrentHashMap<>();
    private final AtomicInteger sinceSweep = new AtomicInteger();

    /**
     * An event of the board arrived carrying {@code uptimeMs} (not a copy delivered again). Told as
     * each event arrives, before it waits for its turn, so that the events waiting behind it are
     * compared with it.
     */
    void arrived(String gadgetId, long uptimeMs, Instant arrivedAt) {
        boards.merge(gadgetId, new Board(uptimeMs, arrivedAt, Instant.MIN), (known, incoming) -> {
            if (incoming.arrivedAt().isBefore(known.arrivedAt())) {
                return known;
            }
            Instant trustedFrom = uptimeMs < known.uptimeMs() ? arrivedAt.plus(DISTRUST) : known.trustedFrom();
            return new Board(uptimeMs, arrivedAt, trustedFrom);
        });
        if (sinceSweep.incrementAndGet() >= SWEEP_EVERY) {
            sinceSweep.set(0);
            // DISTRUST is no longer than RETAIN: a board is not forgotten while its clock is distrusted
            Instant horizon = arrivedAt.minus(RETAIN);
            boards.values().removeIf(board -> board.arrivedAt().isBefore(horizon));
        }
    }

    /**
     * At least how old, as of {@code now}, the event is that arrived at {@code arrivedAt} with
     * {@code uptimeMs}: its time since arrival, or more if its board's latest event shows it.
     */
    Duration age(String gadgetId, long uptimeMs, Instant arrivedAt, Instant now) {
        Duration sinceArrival = Duration.between(arrivedAt, now);
        Board later = boards.get(gadgetId);
        if (later == null || now.isBefore(later.trustedFrom())) {
            return sinceArrival;
        }
        Duration sinceSent = Duration.between(later.arrivedAt(), now).plusMillis(later.uptimeMs() - uptimeMs);
        return sinceSent.compareTo(sinceArrival) > 0 ? sinceSent : sinceArrival;
    }

    /** How many boards' latest arrivals are kept (for tests). */
    int size() {
        return boards.size();
    }
}
