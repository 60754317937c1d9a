package dev.ringzero.kernel;

import java.util.Objects;

/**
 * Something that happened to a waiting or playing ticket because the speaker changed hands; the caller
 * acts on each, in order (wake the granted one, end the stale ones, stop the pre-empted one).
 */
public sealed interface Turn {

    /** The affected ticket. */
    String ticket();

    /** It is this ticket's turn: re-check the kernel at execution time, then play. */
    record Granted(String ticket) implements Turn {

        public Granted {
            Objects.requireNonNull(ticket, "ticket");
        }
    }

    /** Waited past the staleness bound: end the action {@code dropped_stale}, unplayed. */
    record DroppedStale(String ticket) implements Turn {

        public DroppedStale {
            Objects.requireNonNull(ticket, "ticket");
        }
    }

    /** Lost the speaker to the person's interaction: send {@code speaker.stop}; it is not replayed. */
    record Preempted(String ticket) implements Turn {

        public Preempted {
            Objects.requireNonNull(ticket, "ticket");
        }
    }
}
