package dev.ringzero.agents.runs;

import java.time.Clock;

import dev.ringzero.kernel.Claim;
import dev.ringzero.kernel.CommandKind;
import dev.ringzero.kernel.Priority;

/**
 * A run's part in the speaker floor ({@code docs/arbitration.md}): a sound takes a turn before it
 * is sent, one ticket per action of a run; a sound that is not sent hands its turn back, one that
 * is sent holds the floor while it plays, and one whose turn came too late is never played.
 */
final class SpeakerTurns {

    /** What the floor says to an action that is about to be sent. */
    sealed interface Turn {
    }

    /** Not a sound: no turn needed. */
    record Free() implements Turn {
    }

    /** The action holds the speaker under {@code ticket}. */
    record Holds(String ticket) implements Turn {
    }

    /** The speaker is busy: the run waits for its turn. */
    record Waits() implements Turn {
    }

    /** The sound waited too long for its turn: it is dropped, never played late. */
    record Stale() implements Turn {
    }

    private final Speakers floor;
    private final RunStore runs;
    private final Clock clock;

    SpeakerTurns(Speakers floor, RunStore runs, Clock clock) {
        this.floor = floor;
        this.runs = runs;
        this.clock = clock;
    }

    /** The speaker ticket of one action of one run. */
    static String ticket(String runId, int index) {
        return "run:" + runId + ":" + index;
    }

    /** Asks the floor for the action's turn (its request dates from when the action was recorded). */
    Turn take(String runId, RunStore.Action action, Priority priority) {
        if (!isSound(action)) {
            return new Free();
        }
        String ticket = ticket(runId, action.index());
        Claim claim = floor.request(action.gadgetId(), ticket, priority, action.startedAt());
        if (claim instanceof Claim.Queued) {
            return new Waits();
        }
        if (claim instanceof Claim.DroppedStale) {
            return new Stale();
        }
        return new Holds(ticket);
    }

    /** The action held the speaker and left as {@code invocationId}: it holds it while it plays. */
    void sent(String invocationId, RunStore.Action action, Turn turn) {
        if (turn instanceof Holds holds) {
            floor.playing(invocationId, action.gadgetId(), holds.ticket());
        }
    }

    /** The action held the speaker and was not sent: the turn goes to the next in line. */
    void notSent(RunStore.Action action, Turn turn) {
        if (turn instanceof Holds holds) {
            floor.release(action.gadgetId(), holds.ticket());
        }
    }

    /** A sound that will not be sent hands back the speaker turn that may have woken its run. */
    void handBack(String runId, RunStore.Action action) {
        if (isSound(action)) {
            floor.release(action.gadgetId(), ticket(runId, action.index()));
        }
    }

    /** The device answered {@code invocationId}: a sound that is not playing on frees the speaker now. */
    void answered(String invocationId, String outcome) {
        if (!"accepted".equals(outcome)) {
            floor.ended(invocationId);
        }
    }

    /** A queued sound whose turn came too late (older than the staleness bound): never played late. */
    void dropStale(String runId, int index) {
        runs.actionEnded(runId, index, "allow", "dropped_stale", null, null, clock.instant());
    }

    private static boolean isSound(RunStore.Action action) {
        return CommandKind.of(action.command()) == CommandKind.SOUND;
    }
}
