package dev.ringzero.policy;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sounds playing, by invocation id: which gadget's speaker each holds and under which ticket,
 * so the device's end of playback (or its invocation's end) frees the right speaker. In memory
 * for one node ({@link #inMemory}); in the shared database for a cluster ({@link
 * DatabaseSpeakerHolds}), since an answer may reach any node.
 */
interface SpeakerHolds {

    /** A sound playing on {@code gadgetId} under {@code ticket}, sent at {@code since}. */
    record Hold(String gadgetId, String ticket, Instant since) {
    }

    void put(String invocationId, Hold hold);

    /** Removes the invocation's hold and answers it; of callers racing for one, one gets it. */
    Optional<Hold> take(String invocationId);

    /** Forgets the holds older than {@code limit} (their speakers are freed by their own bound). */
    void forgetBefore(Instant limit);

    static SpeakerHolds inMemory() {
        Map<String, Hold> holds = new ConcurrentHashMap<>();
        return new SpeakerHolds() {
            @Override
            public void put(String invocationId, Hold hold) {
                holds.put(invocationId, hold);
            }

            @Override
            public Optional<Hold> take(String invocationId) {
                return Optional.ofNullable(holds.remove(invocationId));
            }

            @Override
            public void forgetBefore(Instant limit) {
                holds.values().removeIf(hold -> hold.since().isBefore(limit));
            }
        };
    }
}
