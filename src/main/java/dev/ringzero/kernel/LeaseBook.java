package dev.ringzero.kernel;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.UnaryOperator;

/**
 * Where {@link MoverLease} keeps who holds each gadget: the kernel decides, the book only stores,
 * one gadget's entry at a time and atomically. {@link #inMemory} serves one node; a book in the
 * shared database serves every node of a cluster alike, so no two nodes can grant one gadget to
 * two movers.
 */
public interface LeaseBook {

    /** A gadget's lease as recorded: who holds it, and until when (free from then on). */
    record Entry(String ticket, Instant expiresAt) {

        public boolean liveAt(Instant now) {
            return now.isBefore(expiresAt);
        }
    }

    /**
     * Reads the gadget's entry, stores what {@code change} makes of it (empty: none) and answers
     * the entry as it was; no other change of the same gadget's entry, on any node, interleaves.
     * {@code change} is a pure function and may be called again if the book retries.
     */
    Optional<Entry> change(String gadgetId, UnaryOperator<Optional<Entry>> change);

    /** The gadget's entry as recorded now, live or not. */
    Optional<Entry> read(String gadgetId);

    /** A book in this JVM's memory: the leases of one node, freed when it stops. */
    static LeaseBook inMemory() {
        ConcurrentMap<String, Entry> entries = new ConcurrentHashMap<>();
        return new LeaseBook() {
            @Override
            public Optional<Entry> change(String gadgetId, UnaryOperator<Optional<Entry>> change) {
                Entry[] was = new Entry[1];
                entries.compute(gadgetId, (id, held) -> {
                    was[0] = held;
                    return change.apply(Optional.ofNullable(held)).orElse(null);
                });
                return Optional.ofNullable(was[0]);
            }

            @Override
            public Optional<Entry> read(String gadgetId) {
                return Optional.ofNullable(entries.get(gadgetId));
            }
        };
    }
}
