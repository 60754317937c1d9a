package dev.ringzero.kernel;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.UnaryOperator;

/**
 * Where an arbiter of the kernel keeps its state, one entry per gadget: the kernel decides, the
 * book only stores, one gadget's entry at a time and atomically. {@link #inMemory} serves one node;
 * a book in the shared database serves every node of a cluster alike, so no two nodes can decide
 * one gadget differently ({@link LeaseBook} for the movers, {@link SpeakerBook} for the speaker).
 */
public interface Book<E> {

    /**
     * Reads the gadget's entry, stores what {@code change} makes of it (empty: none) and answers
     * the entry as it was; no other change of the same gadget's entry, on any node, interleaves.
     * {@code change} is a pure function and may be called again if the book retries.
     */
    Optional<E> change(String gadgetId, UnaryOperator<Optional<E>> change);

    /** The gadget's entry as recorded now. */
    Optional<E> read(String gadgetId);

    /** A book in this JVM's memory: one node's entries, gone when it stops. */
    static <E> Book<E> inMemory() {
        return new InMemory<>();
    }

    /** The entries of one node, a map changed one key at a time. */
    class InMemory<E> implements Book<E> {

        final ConcurrentMap<String, E> entries = new ConcurrentHashMap<>();

        @Override
        public Optional<E> change(String gadgetId, UnaryOperator<Optional<E>> change) {
            Object[] was = new Object[1];
            entries.compute(gadgetId, (id, held) -> {
                was[0] = held;
                return change.apply(Optional.ofNullable(held)).orElse(null);
            });
            @SuppressWarnings("unchecked")
            E previous = (E) was[0];
            return Optional.ofNullable(previous);
        }

        @Override
        public Optional<E> read(String gadgetId) {
            return Optional.ofNullable(entries.get(gadgetId));
        }
    }
}
