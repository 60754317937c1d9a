package dev.ringzero.agents.runs;

import static dev.ringzero.agents.runs.RunFixtures.DESK;
import static dev.ringzero.agents.runs.RunFixtures.T0;
import static dev.ringzero.agents.runs.RunFixtures.runningWithActions;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ringzero.kernel.Claim;
import dev.ringzero.kernel.Priority;
import dev.ringzero.support.MovableClock;
import org.junit.jupiter.api.Test;

class SpeakerTurnsTest {

    private final RunStore runs = RunFixtures.store();
    private final RunFixtures.FakeSpeakers floor = new RunFixtures.FakeSpeakers();
    private final MovableClock clock = new MovableClock(T0.plusSeconds(3));
    private final SpeakerTurns underTest = new SpeakerTurns(floor, runs, clock);

    private RunStore.Action action(int index) {
        return runs.actions("r1").get(index);
    }

    @Test
    void anActionThatIsNoSoundNeedsNoTurn() {
        runningWithActions(runs, "r1", T0, "display.show_text", "speaker.stop");

        assertThat(underTest.take("r1", action(0), Priority.PROACTIVE)).isInstanceOf(SpeakerTurns.Free.class);
        assertThat(underTest.take("r1", action(1), Priority.PROACTIVE)).isInstanceOf(SpeakerTurns.Free.class);
        assertThat(floor.calls).isEmpty();
    }

    @Test
    void aSoundAsksForItsTurnWithItsRunsTicketAsOfWhenItWasRecorded() {
        runningWithActions(runs, "r1", T0, "display.show_text", "speaker.say");
        floor.claim = new Claim.Granted("run:r1:1");

        SpeakerTurns.Turn turn = underTest.take("r1", action(1), Priority.EXPLICIT);

        assertThat(turn).isEqualTo(new SpeakerTurns.Holds("run:r1:1"));
        assertThat(floor.calls).containsExactly("request desk-1 run:r1:1 EXPLICIT " + T0);
    }

    @Test
    void aSoundThatPreemptsAnotherHoldsTheSpeaker() {
        runningWithActions(runs, "r1", T0, "speaker.say");
        floor.claim = new Claim.Preempted("run:r1:0", "run:r0:0");

        assertThat(underTest.take("r1", action(0), Priority.EXPLICIT)).isEqualTo(new SpeakerTurns.Holds("run:r1:0"));
    }

    @Test
    void aSoundBehindAnotherWaitsAndOneWhoseTurnCameTooLateIsStale() {
        runningWithActions(runs, "r1", T0, "speaker.say");

        floor.claim = new Claim.Queued("run:r1:0", 1);
        assertThat(underTest.take("r1", action(0), Priority.PROACTIVE)).isInstanceOf(SpeakerTurns.Waits.class);
        floor.claim = new Claim.DroppedStale("run:r1:0");
        assertThat(underTest.take("r1", action(0), Priority.PROACTIVE)).isInstanceOf(SpeakerTurns.Stale.class);
    }

    @Test
    void aSentSoundHoldsTheSpeakerWhileItPlaysAndOneNotSentGivesItBack() {
        runningWithActions(runs, "r1", T0, "speaker.say");
        SpeakerTurns.Turn holds = new SpeakerTurns.Holds("run:r1:0");

        underTest.sent("inv-1", action(0), holds);
        underTest.notSent(action(0), holds);
        underTest.sent("inv-2", action(0), new SpeakerTurns.Free());
        underTest.notSent(action(0), new SpeakerTurns.Free());

        assertThat(floor.calls).containsExactly("playing inv-1 desk-1 run:r1:0", "release desk-1 run:r1:0");
    }

    @Test
    void onlyASoundHandsBackTheTurnThatMayHaveWokenItsRun() {
        runningWithActions(runs, "r1", T0, "display.show_text", "speaker.play_url");

        underTest.handBack("r1", action(0));
        underTest.handBack("r1", action(1));

        assertThat(floor.calls).containsExactly("release " + DESK + " run:r1:1");
    }

    @Test
    void anAnsweredSoundFreesTheSpeakerUnlessItIsStillPlaying() {
        underTest.answered("inv-1", "accepted");
        underTest.answered("inv-2", "completed");
        underTest.answered("inv-3", "unknown");

        assertThat(floor.calls).containsExactly("ended inv-2", "ended inv-3");
    }

    @Test
    void aStaleSoundIsRecordedDroppedNeverPlayed() {
        runningWithActions(runs, "r1", T0, "speaker.say");

        underTest.dropStale("r1", 0);

        assertThat(action(0).verdict()).isEqualTo("allow");
        assertThat(action(0).outcome()).isEqualTo("dropped_stale");
        assertThat(action(0).endedAt()).isEqualTo(clock.instant());
    }

    @Test
    void aTicketNamesTheRunAndTheActionsIndex() {
        assertThat(SpeakerTurns.ticket("r1", 2)).isEqualTo("run:r1:2");
    }
}
