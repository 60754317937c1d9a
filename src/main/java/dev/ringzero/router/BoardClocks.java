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
 * <p>That needs no synchronised clocks, no transit delay and no order of arrival, only that both
 * uptimes are one clock's (a reboot between the two is harmless: an event from before it is older
 * still). Uptimes of two clocks prove nothing: a second connection under the same gadget id with a
 * clock of its own (a maker's tool), or a copy from before a reboot arriving after the reboot's
 * events. Nothing in {@code link.event} names the clock, so this is guarded as far as arrivals
 * show it: once a board's uptime goes backwards from one arrival to the next (a reboot, or two
 * clocks taking turns), its clock is not used for {@link #DISTRUST}, and a copy the broker says it
 * may have delivered before (MQTT's DUP flag) is no arrival here. What remains: until this node
 * has seen the uptime go backwards, another clock's first event can make the events waiting at
 * that moment look older than they are (the board's, when that clock is ahead of the board's; its
 * own, when the board's next event comes while it waits). The reference firmware sends no
 * {@code uptime_ms} from a second connection.
 *
 * <p>It matters after an outage: the broker delivers what it kept for the platform in one burst,
 * in the order each board sent it, so every event arrives at about the same moment and the receipt
 * time says nothing, while each board's newest event shows how stale its older ones are. A board
 * that sent only one event meanwhile gives nothing to compare, and neither does an event whose
 * turn comes before its board's newer events arrive.
 *
 * <p>Arrivals are told from one thread (the link's), in the order they arrive; ages are asked from
 * any. Each board's latest arrival is kept for {@link #RETAIN}, so that a clock going backwards is
 * seen even after a quiet while; a reboot therefore turns a board's clock off for a day.
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
        // told in the order of arrival (one thread), so the one told last is the latest, whatever
        // the wall clock did meanwhile
        boards.merge(gadgetId, new Board(uptimeMs, arrivedAt, Instant.MIN), (known, incoming) -> {
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
