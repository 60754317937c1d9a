package dev.ringzero.policy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.ringzero.kernel.Claim;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.SpeakerArbiter;
import dev.ringzero.kernel.Turn;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Ring 0's speaker floor: the kernel's {@link SpeakerArbiter} (one sound at a time per gadget,
 * the person first, stale background sound dropped) bound to the link. A sound command holds the
 * floor from its grant until the device reports playback ended ({@code speaker_idle} with its
 * invocation id), or its invocation ends without playing (failed, unknown, refused), or a
 * safety bound passes. What happens on each turn is the {@link TurnListener}'s business.
 *
 * <p>The floor is in memory, per node: the gadgets whose work runs here. After a restart waiting
 * requests are gone (their runs time out or are re-requested and judged stale).
 */
@Component
public class SpeakerFloor {

    /** Acts on the turns a release or an interaction produced (wake a waiting run, record a drop). */
    public interface TurnListener {
        void onTurns(String gadgetId, List<Turn> turns);
    }

    /** A sound held longer than this without news is released, so a lost event cannot block a speaker. */
    static final Duration MAX_HOLD = Duration.ofMinutes(2);

    private final SpeakerArbiter arbiter;
    private final Clock clock;
    /** Looked up when turns happen: the listeners themselves depend on the floor. */
    private final ObjectProvider<TurnListener> listeners;
    private final Map<String, Hold> holds = new ConcurrentHashMap<>();

    private record Hold(String gadgetId, String ticket, Instant since) {
    }

    SpeakerFloor(Clock clock, ObjectProvider<TurnListener> listeners,
            @org.springframework.beans.factory.annotation.Value("${ringzero.speaker.stale-after:PT30S}")
            Duration staleAfter) {
        this.arbiter = new SpeakerArbiter(staleAfter);
        this.clock = clock;
        this.listeners = listeners;
    }

    public Claim request(String gadgetId, String ticket, Priority priority, Instant requestedAt) {
        return arbiter.request(gadgetId, ticket, priority, requestedAt, clock.instant());
    }

    /** The granted ticket's sound was sent as this invocation: its end releases the floor. */
    public void playing(String invocationId, String gadgetId, String ticket) {
        holds.put(invocationId, new Hold(gadgetId, ticket, clock.instant()));
    }

    /** Releases a ticket that got the floor but sent nothing (refused, fenced). */
    public void release(String gadgetId, String ticket) {
        announce(gadgetId, arbiter.release(gadgetId, ticket, clock.instant()));
    }

    /** The invocation is over for the speaker (played to the end, failed, or unknown). */
    public void ended(String invocationId) {
        Hold hold = holds.remove(invocationId);
        if (hold != null) {
            release(hold.gadgetId(), hold.ticket());
        }
    }

    public void interactionStarted(String gadgetId) {
        announce(gadgetId, arbiter.interactionStarted(gadgetId, clock.instant()));
    }

    public void interactionEnded(String gadgetId) {
        announce(gadgetId, arbiter.interactionEnded(gadgetId, clock.instant()));
    }

    public Optional<String> holder(String gadgetId) {
        return arbiter.holder(gadgetId);
    }

    public List<String> waiting(String gadgetId) {
        return arbiter.waiting(gadgetId);
    }

    @Scheduled(fixedDelayString = "PT5S")
    void releaseForgottenHolds() {
        Instant limit = clock.instant().minus(MAX_HOLD);
        holds.entrySet().removeIf(entry -> {
            if (entry.getValue().since().isBefore(limit)) {
                release(entry.getValue().gadgetId(), entry.getValue().ticket());
                return true;
            }
            return false;
        });
    }

    private void announce(String gadgetId, List<Turn> turns) {
        if (!turns.isEmpty()) {
            listeners.orderedStream().forEach(listener -> listener.onTurns(gadgetId, turns));
        }
    }
}
