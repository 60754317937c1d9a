package dev.ringzero.kernel;

import java.time.Instant;

/**
 * Where {@link MoverLease} keeps who holds each gadget (a {@link Book} of leases): {@link #inMemory}
 * serves one node; a book in the shared database serves every node of a cluster alike, so no two
 * nodes can grant one gadget to two movers.
 */
public interface LeaseBook extends Book<LeaseBook.Entry> {

    /** A gadget's lease as recorded: who holds it, and until when (free from then on). */
    record Entry(String ticket, Instant expiresAt) {

        public boolean liveAt(Instant now) {
            return now.isBefore(expiresAt);
        }
    }

    /** A book in this JVM's memory: the leases of one node, freed when it stops. */
    static LeaseBook inMemory() {
        return new Memory();
    }

    /** The leases of one node. */
    final class Memory extends Book.InMemory<Entry> implements LeaseBook {
    }
}
