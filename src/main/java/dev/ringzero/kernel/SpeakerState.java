package dev.ringzero.kernel;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One gadget's speaker as a value a {@link SpeakerBook} can store and load: who holds it and since
 * when (its grant, or the start of its playback), whether the person is interacting, the waiting
 * requests in turn order, and the arrival counter that breaks ties between equal requests. Only
 * {@link SpeakerArbiter} makes these; a book keeps them as they are.
 *
 * @param holder the ticket holding the speaker, or null
 * @param heldSince when the holder was granted the speaker or its sound started playing; null
 *        exactly when nobody holds it
 * @param interaction whether the person is interacting (everything else waits)
 * @param waiting the waiting requests, in turn order
 * @param arrivals the arrival number the next waiting request gets
 */
public record SpeakerState(String holder, Instant heldSince, boolean interaction, List<Waiting> waiting,
        long arrivals) {

    /** A waiting request: turn order is priority, then the oldest request, then arrival. */
    public record Waiting(String ticket, Priority priority, Instant requestedAt, long arrival) {

        public Waiting {
            Require.text(ticket, "ticket");
            Objects.requireNonNull(priority, "priority");
            Objects.requireNonNull(requestedAt, "requestedAt");
        }
    }

    public SpeakerState {
        if ((holder == null) != (heldSince == null)) {
            throw new IllegalArgumentException("a holder and the time it holds since go together");
        }
        waiting = List.copyOf(waiting);
        if (arrivals < 0) {
            throw new IllegalArgumentException("arrivals must not be negative");
        }
    }
}
