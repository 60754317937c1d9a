package dev.ringzero.agents.runs;

import java.time.Instant;

import dev.ringzero.kernel.Claim;
import dev.ringzero.kernel.Priority;
import dev.ringzero.policy.SpeakerFloor;

/** The gadgets' speaker floor ({@code policy.SpeakerFloor}) as a run takes part in it. */
interface Speakers {

    Claim request(String gadgetId, String ticket, Priority priority, Instant requestedAt);

    /** The sound holding the floor under {@code ticket} left as {@code invocationId}. */
    void playing(String invocationId, String gadgetId, String ticket);

    void release(String gadgetId, String ticket);

    /** The sound sent as {@code invocationId} is over. */
    void ended(String invocationId);

    static Speakers of(SpeakerFloor floor) {
        return new Speakers() {
            @Override
            public Claim request(String gadgetId, String ticket, Priority priority, Instant requestedAt) {
                return floor.request(gadgetId, ticket, priority, requestedAt);
            }

            @Override
            public void playing(String invocationId, String gadgetId, String ticket) {
                floor.playing(invocationId, gadgetId, ticket);
            }

            @Override
            public void release(String gadgetId, String ticket) {
                floor.release(gadgetId, ticket);
            }

            @Override
            public void ended(String invocationId) {
                floor.ended(invocationId);
            }
        };
    }
}
