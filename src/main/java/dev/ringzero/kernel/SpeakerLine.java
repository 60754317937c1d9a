package dev.ringzero.kernel;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.ringzero.kernel.SpeakerState.Waiting;

/**
 * One gadget's speaker: its holder, whether the person is interacting, and the line of waiting requests
 * in turn order (priority, then oldest request, then arrival). Not thread-safe on its own, and lives
 * for one operation: {@link SpeakerArbiter} loads it from its {@link SpeakerState} inside the book's
 * atomic change of the gadget and stores {@link #state()} back.
 *
 * <p>Invariant: when nobody holds the speaker and no interaction is active, the line is empty — every
 * transition that frees the speaker hands it on at once ({@link #handOn}).
 */
final class SpeakerLine {

    private static final Comparator<Waiting> TURN_ORDER = Comparator.comparing(Waiting::priority)
            .thenComparing(Waiting::requestedAt)
            .thenComparingLong(Waiting::arrival);

    private final Duration staleAfter;
    private final List<Waiting> line = new ArrayList<>();
    private String holder;
    private Instant heldSince;
    private boolean interaction;
    private long arrivals;

    SpeakerLine(Duration staleAfter) {
        this.staleAfter = staleAfter;
    }

    /** The line as {@code state} recorded it. */
    static SpeakerLine of(SpeakerState state, Duration staleAfter) {
        SpeakerLine line = new SpeakerLine(staleAfter);
        line.holder = state.holder();
        line.heldSince = state.heldSince();
        line.interaction = state.interaction();
        line.line.addAll(state.waiting());
        line.arrivals = state.arrivals();
        return line;
    }

    /** The line as a value to record. */
    SpeakerState state() {
        return new SpeakerState(holder, heldSince, interaction, line, arrivals);
    }

    Claim request(String ticket, Priority priority, Instant requestedAt, Instant now) {
        if (ticket.equals(holder)) {
            return new Claim.Granted(ticket);
        }
        int waiting = indexOf(ticket);
        if (waiting >= 0) {
            return new Claim.Queued(ticket, waiting + 1);
        }
        if (priority == Priority.INTERACTION) {
            String preempted = holder;
            grant(ticket, now);
            return preempted == null ? new Claim.Granted(ticket) : new Claim.Preempted(ticket, preempted);
        }
        if (isStale(requestedAt, now)) {
            return new Claim.DroppedStale(ticket);
        }
        if (holder == null && !interaction) {
            grant(ticket, now); // the line is empty here (invariant), so nobody is skipped
            return new Claim.Granted(ticket);
        }
        Waiting entry = new Waiting(ticket, priority, requestedAt, arrivals++);
        int at = insertionPoint(entry);
        line.add(at, entry);
        return new Claim.Queued(ticket, at + 1);
    }

    List<Turn> release(String ticket, Instant now) {
        if (!ticket.equals(holder)) {
            withdraw(ticket);
            return List.of();
        }
        free();
        return handOn(now);
    }

    /** The holder's sound started playing: it holds the speaker since now. Whether it holds it. */
    boolean playing(String ticket, Instant now) {
        if (!ticket.equals(holder)) {
            return false;
        }
        heldSince = now;
        return true;
    }

    /** Frees a holder that has held the speaker since before {@code limit} and hands it on. */
    List<Turn> releaseHeldBefore(Instant limit, Instant now) {
        if (holder == null || !heldSince.isBefore(limit)) {
            return List.of();
        }
        free();
        return handOn(now);
    }

    List<Turn> interactionStarted(Instant now) {
        interaction = true;
        List<Turn> turns = new ArrayList<>();
        if (holder != null) {
            turns.add(new Turn.Preempted(holder));
            free();
        }
        turns.addAll(dropStale(now));
        return turns;
    }

    List<Turn> interactionEnded(Instant now) {
        interaction = false;
        return handOn(now);
    }

    boolean withdraw(String ticket) {
        int at = indexOf(ticket);
        if (at < 0) {
            return false;
        }
        line.remove(at);
        return true;
    }

    String holder() {
        return holder;
    }

    /** Whether {@code ticket} holds the speaker or waits for it. */
    boolean claimedBy(String ticket) {
        return ticket.equals(holder) || indexOf(ticket) >= 0;
    }

    boolean interactionActive() {
        return interaction;
    }

    List<String> waiting() {
        return line.stream().map(Waiting::ticket).toList();
    }

    boolean idle() {
        return holder == null && !interaction && line.isEmpty();
    }

    private void grant(String ticket, Instant now) {
        holder = ticket;
        heldSince = now;
    }

    private void free() {
        holder = null;
        heldSince = null;
    }

    /** Drops whatever is stale now, then grants the next in line if the speaker is free to give. */
    private List<Turn> handOn(Instant now) {
        List<Turn> turns = dropStale(now);
        if (holder == null && !interaction && !line.isEmpty()) {
            grant(line.remove(0).ticket(), now);
            turns.add(new Turn.Granted(holder));
        }
        return turns;
    }

    /** Anything stale now would be stale at its turn too, so all of it goes, not only the head. */
    private List<Turn> dropStale(Instant now) {
        List<Turn> dropped = new ArrayList<>();
        line.removeIf(entry -> {
            boolean stale = isStale(entry.requestedAt(), now);
            if (stale) {
                dropped.add(new Turn.DroppedStale(entry.ticket()));
            }
            return stale;
        });
        return dropped;
    }

    /** Older than the bound: exactly at the bound is still fresh. */
    private boolean isStale(Instant requestedAt, Instant now) {
        return Duration.between(requestedAt, now).compareTo(staleAfter) > 0;
    }

    private int insertionPoint(Waiting entry) {
        int at = 0;
        while (at < line.size() && TURN_ORDER.compare(line.get(at), entry) <= 0) {
            at++;
        }
        return at;
    }

    private int indexOf(String ticket) {
        for (int i = 0; i < line.size(); i++) {
            if (line.get(i).ticket().equals(ticket)) {
                return i;
            }
        }
        return -1;
    }
}
