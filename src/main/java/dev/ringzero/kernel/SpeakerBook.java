package dev.ringzero.kernel;

import java.time.Instant;
import java.util.List;

/**
 * Where {@link SpeakerArbiter} keeps each gadget's {@link SpeakerState} (a {@link Book}): the
 * arbiter decides, the book only stores. {@link #inMemory} serves one node; a book in the shared
 * database serves every node of a cluster alike, so no two nodes can give one gadget's speaker to
 * two sounds. A free speaker is no entry.
 */
public interface SpeakerBook extends Book<SpeakerState> {

    /**
     * The gadgets whose speaker has been held since before {@code limit} (granted, or playing,
     * since then): the candidates for a holder whose news never came.
     */
    List<String> heldBefore(Instant limit);

    /** A book in this JVM's memory: the speakers of one node, free when it stops. */
    static SpeakerBook inMemory() {
        return new Memory();
    }

    /** The speakers of one node. */
    final class Memory extends Book.InMemory<SpeakerState> implements SpeakerBook {

        @Override
        public List<String> heldBefore(Instant limit) {
            return entries.entrySet().stream()
                    .filter(entry -> entry.getValue().heldSince() != null
                            && entry.getValue().heldSince().isBefore(limit))
                    .map(java.util.Map.Entry::getKey).toList();
        }
    }
}
