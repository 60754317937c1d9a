package dev.ringzero.kernel;

import java.time.Instant;
import java.util.Objects;

/** The answer to a request to move a gadget: the mover slot is yours until a time, or someone else's. */
public sealed interface Lease {

    /** Move until {@code expiresAt} (the duration asked for, bounded); the lease is free from then on. */
    record Granted(String ticket, Instant expiresAt) implements Lease {

        public Granted {
            Objects.requireNonNull(ticket, "ticket");
            Objects.requireNonNull(expiresAt, "expiresAt");
        }
    }

    /** Another ticket is moving the gadget until {@code freeAt} at the latest. */
    record Busy(String holder, Instant freeAt) implements Lease {

        public Busy {
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(freeAt, "freeAt");
        }
    }
}
