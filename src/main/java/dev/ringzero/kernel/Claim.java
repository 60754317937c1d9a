package dev.ringzero.kernel;

import java.util.Objects;

/**
 * The answer to a request for a gadget's speaker. Sealed so the dispatcher handles pre-emption and
 * staleness, not just the happy path.
 */
public sealed interface Claim {

    /** The requesting ticket. */
    String ticket();

    /** Whether the requester holds the speaker now and may play. */
    default boolean granted() {
        return this instanceof Granted || this instanceof Preempted;
    }

    /** The speaker is yours. */
    record Granted(String ticket) implements Claim {

        public Granted {
            Objects.requireNonNull(ticket, "ticket");
        }
    }

    /**
     * The speaker is yours, taken from {@code preemptedTicket}: send {@code speaker.stop} for it first.
     * The pre-empted sound is not queued again: an interrupted audible effect is never replayed blindly.
     */
    record Preempted(String ticket, String preemptedTicket) implements Claim {

        public Preempted {
            Objects.requireNonNull(ticket, "ticket");
            Objects.requireNonNull(preemptedTicket, "preemptedTicket");
        }
    }

    /** Wait; {@code position} 1 is next in line (entries ahead may still drop out as stale). */
    record Queued(String ticket, int position) implements Claim {

        public Queued {
            Objects.requireNonNull(ticket, "ticket");
        }
    }

    /** Already older than the staleness bound when asked: end the action {@code dropped_stale}. */
    record DroppedStale(String ticket) implements Claim {

        public DroppedStale {
            Objects.requireNonNull(ticket, "ticket");
        }
    }
}
