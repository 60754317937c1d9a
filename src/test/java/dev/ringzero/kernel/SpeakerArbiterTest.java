package dev.ringzero.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** {@link SpeakerArbiter}: one sound at a time per gadget, the person first, nothing played late. */
class SpeakerArbiterTest {

    private static final String DESK = "desk-1";
    private static final Instant T0 = Instant.parse("2025-06-02T10:00:00Z");

    private final SpeakerArbiter underTest = new SpeakerArbiter();

    private static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    private Claim ask(String ticket, Priority priority, long requestedAtSecond) {
        return underTest.request(DESK, ticket, priority, at(requestedAtSecond), at(requestedAtSecond));
    }

    @Nested
    class OneAtATime {

        @Test
        void aFreeSpeakerIsGrantedAtOnce() {
            assertThat(ask("a", Priority.PROACTIVE, 0)).isEqualTo(new Claim.Granted("a"));
            assertThat(underTest.holder(DESK)).contains("a");
        }

        @Test
        void aSecondRequestWaitsAndTheHolderKeepsTheSpeaker() {
            ask("a", Priority.PROACTIVE, 0);

            assertThat(ask("b", Priority.APPROVED_GATE, 1)).isEqualTo(new Claim.Queued("b", 1));
            assertThat(underTest.holder(DESK)).contains("a");
        }

        @Test
        void releasingHandsTheSpeakerToTheNextInLine() {
            ask("a", Priority.PROACTIVE, 0);
            ask("b", Priority.PROACTIVE, 1);

            assertThat(underTest.release(DESK, "a", at(5))).containsExactly(new Turn.Granted("b"));
            assertThat(underTest.holder(DESK)).contains("b");
        }

        @Test
        void theLastReleaseLeavesTheSpeakerFree() {
            ask("a", Priority.PROACTIVE, 0);

            assertThat(underTest.release(DESK, "a", at(5))).isEmpty();
            assertThat(underTest.holder(DESK)).isEmpty();
            assertThat(ask("b", Priority.PROACTIVE, 6)).isEqualTo(new Claim.Granted("b"));
        }

        @Test
        void gadgetsHaveSeparateSpeakers() {
            ask("a", Priority.PROACTIVE, 0);

            assertThat(underTest.request("desk-2", "b", Priority.PROACTIVE, at(1), at(1))).isEqualTo(new Claim.Granted("b"));
        }

        @Test
        void aRepeatedRequestIsAnsweredAgainNotQueuedTwice() {
            ask("a", Priority.PROACTIVE, 0);
            ask("b", Priority.PROACTIVE, 1);
            ask("c", Priority.PROACTIVE, 2);

            assertThat(ask("a", Priority.PROACTIVE, 3)).isEqualTo(new Claim.Granted("a"));
            assertThat(ask("b", Priority.PROACTIVE, 3)).isEqualTo(new Claim.Queued("b", 1));
            assertThat(underTest.waiting(DESK)).containsExactly("b", "c");
        }

        @Test
        void onlyTheHolderCanHandTheSpeakerOn() {
            ask("a", Priority.PROACTIVE, 0);
            ask("b", Priority.PROACTIVE, 1);

            assertThat(underTest.release(DESK, "stranger", at(2))).isEmpty();
            assertThat(underTest.holder(DESK)).contains("a");
            assertThat(underTest.waiting(DESK)).containsExactly("b");
        }

        @Test
        void releasingAWaitingTicketWithdrawsIt() {
            ask("a", Priority.PROACTIVE, 0);
            ask("b", Priority.PROACTIVE, 1);
            ask("c", Priority.PROACTIVE, 2);

            assertThat(underTest.release(DESK, "b", at(3))).isEmpty();
            assertThat(underTest.release(DESK, "a", at(4))).containsExactly(new Turn.Granted("c"));
        }
    }

    @Nested
    class TurnOrder {

        @Test
        void requestsOfOnePriorityAreServedFirstComeFirstServed() {
            ask("a", Priority.PROACTIVE, 0);
            ask("b", Priority.PROACTIVE, 1);
            ask("c", Priority.PROACTIVE, 2);
            ask("d", Priority.PROACTIVE, 3);

            assertThat(underTest.release(DESK, "a", at(4))).containsExactly(new Turn.Granted("b"));
            assertThat(underTest.release(DESK, "b", at(5))).containsExactly(new Turn.Granted("c"));
            assertThat(underTest.release(DESK, "c", at(6))).containsExactly(new Turn.Granted("d"));
        }

        @Test
        void theOldestRequestGoesFirstEvenWhenItArrivesLater() {
            ask("a", Priority.PROACTIVE, 0);
            underTest.request(DESK, "late-news", Priority.PROACTIVE, at(5), at(5));
            Claim older = underTest.request(DESK, "old-news", Priority.PROACTIVE, at(2), at(6));

            assertThat(older).isEqualTo(new Claim.Queued("old-news", 1));
            assertThat(underTest.release(DESK, "a", at(7))).containsExactly(new Turn.Granted("old-news"));
        }

        @Test
        void aHigherPriorityGoesFirst() {
            ask("a", Priority.PROACTIVE, 0);
            ask("schedule", Priority.PROACTIVE, 1);
            ask("run-now", Priority.EXPLICIT, 2);
            ask("approved", Priority.APPROVED_GATE, 3);

            assertThat(underTest.waiting(DESK)).containsExactly("approved", "run-now", "schedule");
            assertThat(underTest.release(DESK, "a", at(4))).containsExactly(new Turn.Granted("approved"));
            assertThat(underTest.release(DESK, "approved", at(5))).containsExactly(new Turn.Granted("run-now"));
            assertThat(underTest.release(DESK, "run-now", at(6))).containsExactly(new Turn.Granted("schedule"));
        }

        @Test
        void theQueuedPositionCountsWhoIsAhead() {
            ask("a", Priority.PROACTIVE, 0);
            ask("b", Priority.PROACTIVE, 1);

            assertThat(ask("c", Priority.EXPLICIT, 2)).isEqualTo(new Claim.Queued("c", 1));
            assertThat(ask("d", Priority.PROACTIVE, 3)).isEqualTo(new Claim.Queued("d", 3));
        }
    }

    @Nested
    class Staleness {

        @Test
        void aRequestExactlyThirtySecondsOldStillPlays() {
            ask("a", Priority.PROACTIVE, 0);
            ask("b", Priority.PROACTIVE, 1);

            assertThat(underTest.release(DESK, "a", at(31))).containsExactly(new Turn.Granted("b"));
        }

        @Test
        void aRequestOlderThanThirtySecondsIsDroppedWhenItsTurnComes() {
            ask("a", Priority.PROACTIVE, 0);
            ask("b", Priority.PROACTIVE, 1);
            ask("c", Priority.PROACTIVE, 20);

            assertThat(underTest.release(DESK, "a", at(31).plusMillis(1)))
                    .containsExactly(new Turn.DroppedStale("b"), new Turn.Granted("c"));
            assertThat(underTest.holder(DESK)).contains("c");
        }

        @Test
        void everyStaleRequestIsDroppedAtOnceAndReportedBeforeTheGrant() {
            ask("a", Priority.PROACTIVE, 0);
            ask("stale-behind", Priority.PROACTIVE, 1);
            ask("fresh", Priority.EXPLICIT, 40);
            assertThat(underTest.waiting(DESK)).containsExactly("fresh", "stale-behind");

            assertThat(underTest.release(DESK, "a", at(45)))
                    .containsExactly(new Turn.DroppedStale("stale-behind"), new Turn.Granted("fresh"));
            assertThat(underTest.waiting(DESK)).isEmpty();
        }

        @Test
        void whenEverythingWaitingIsStaleTheSpeakerIsLeftFree() {
            ask("a", Priority.PROACTIVE, 0);
            ask("b", Priority.PROACTIVE, 1);
            ask("c", Priority.PROACTIVE, 2);

            assertThat(underTest.release(DESK, "a", at(60)))
                    .containsExactly(new Turn.DroppedStale("b"), new Turn.DroppedStale("c"));
            assertThat(underTest.holder(DESK)).isEmpty();
            assertThat(ask("d", Priority.PROACTIVE, 61)).isEqualTo(new Claim.Granted("d"));
        }

        @Test
        void aRequestAlreadyStaleWhenItArrivesIsDroppedRatherThanPlayedLate() {
            assertThat(underTest.request(DESK, "late", Priority.PROACTIVE, at(0), at(30).plusMillis(1)))
                    .isEqualTo(new Claim.DroppedStale("late"));
            assertThat(underTest.holder(DESK)).isEmpty();
        }

        @Test
        void aRequestExactlyAtTheBoundWhenItArrivesIsGranted() {
            assertThat(underTest.request(DESK, "just", Priority.PROACTIVE, at(0), at(30)))
                    .isEqualTo(new Claim.Granted("just"));
        }

        @Test
        void theStalenessBoundIsConfigurable() {
            SpeakerArbiter patient = new SpeakerArbiter(Duration.ofMinutes(2));
            patient.request(DESK, "a", Priority.PROACTIVE, at(0), at(0));
            patient.request(DESK, "b", Priority.PROACTIVE, at(1), at(1));

            assertThat(patient.release(DESK, "a", at(100))).containsExactly(new Turn.Granted("b"));
        }

        @Test
        void theStalenessBoundMustBePositive() {
            assertThatExceptionOfType(IllegalArgumentException.class)
                    .isThrownBy(() -> new SpeakerArbiter(Duration.ZERO));
        }
    }

    @Nested
    class ThePersonFirst {

        @Test
        void theOwnersDirectCommandPreemptsBackgroundSpeech() {
            ask("background", Priority.PROACTIVE, 0);

            assertThat(ask("direct", Priority.INTERACTION, 2)).isEqualTo(new Claim.Preempted("direct", "background"));
            assertThat(underTest.holder(DESK)).contains("direct");
        }

        @Test
        void aPreemptionIsAGrant() {
            ask("background", Priority.PROACTIVE, 0);

            assertThat(ask("direct", Priority.INTERACTION, 2).granted()).isTrue();
            assertThat(new Claim.Queued("x", 1).granted()).isFalse();
            assertThat(new Claim.DroppedStale("x").granted()).isFalse();
        }

        @Test
        void theDirectCommandGoesAheadOfEverythingWaitingAndIsNeverStale() {
            ask("background", Priority.PROACTIVE, 0);
            ask("approved", Priority.APPROVED_GATE, 1);

            assertThat(underTest.request(DESK, "direct", Priority.INTERACTION, at(0), at(45)))
                    .isEqualTo(new Claim.Preempted("direct", "background"));
        }

        @Test
        void aPreemptedSoundIsNotReplayedAndItsLateReleaseChangesNothing() {
            ask("background", Priority.PROACTIVE, 0);
            ask("waiting", Priority.PROACTIVE, 1);
            ask("direct", Priority.INTERACTION, 2);

            assertThat(underTest.release(DESK, "background", at(3))).isEmpty();
            assertThat(underTest.holder(DESK)).contains("direct");
            assertThat(underTest.waiting(DESK)).containsExactly("waiting");
            assertThat(underTest.release(DESK, "direct", at(4))).containsExactly(new Turn.Granted("waiting"));
        }

        @Test
        void aDirectCommandOnAFreeSpeakerIsSimplyGranted() {
            assertThat(ask("direct", Priority.INTERACTION, 0)).isEqualTo(new Claim.Granted("direct"));
        }

        @Test
        void pushToTalkPreemptsTheHolderAndBackgroundWaitsEvenOnAFreeSpeaker() {
            ask("background", Priority.PROACTIVE, 0);

            assertThat(underTest.interactionStarted(DESK, at(1))).containsExactly(new Turn.Preempted("background"));
            assertThat(underTest.holder(DESK)).isEmpty();
            assertThat(ask("later", Priority.EXPLICIT, 2)).isEqualTo(new Claim.Queued("later", 1));
            assertThat(underTest.interactionActive(DESK)).isTrue();
        }

        @Test
        void backgroundQueuedDuringAnInteractionPlaysWhenItEnds() {
            underTest.interactionStarted(DESK, at(0));
            ask("background", Priority.PROACTIVE, 5);

            assertThat(underTest.interactionEnded(DESK, at(20))).containsExactly(new Turn.Granted("background"));
            assertThat(underTest.interactionActive(DESK)).isFalse();
        }

        @Test
        void backgroundQueuedDuringALongInteractionGoesStale() {
            underTest.interactionStarted(DESK, at(0));
            ask("background", Priority.PROACTIVE, 5);

            assertThat(underTest.interactionEnded(DESK, at(40))).containsExactly(new Turn.DroppedStale("background"));
            assertThat(underTest.holder(DESK)).isEmpty();
        }

        @Test
        void theAssistantsReplyDuringAnInteractionPlaysAndItsReleaseHandsNothingToBackground() {
            underTest.interactionStarted(DESK, at(0));
            ask("background", Priority.PROACTIVE, 1);

            assertThat(ask("reply", Priority.INTERACTION, 2)).isEqualTo(new Claim.Granted("reply"));
            assertThat(underTest.release(DESK, "reply", at(5))).isEmpty();
            assertThat(underTest.holder(DESK)).isEmpty();
            assertThat(underTest.interactionEnded(DESK, at(6))).containsExactly(new Turn.Granted("background"));
        }

        @Test
        void theEndOfAnInteractionWaitsForTheReplyStillPlaying() {
            underTest.interactionStarted(DESK, at(0));
            ask("background", Priority.PROACTIVE, 1);
            ask("reply", Priority.INTERACTION, 2);

            assertThat(underTest.interactionEnded(DESK, at(3))).isEmpty();
            assertThat(underTest.release(DESK, "reply", at(8))).containsExactly(new Turn.Granted("background"));
        }

        @Test
        void aStartingInteractionDropsWhatIsAlreadyStale() {
            ask("a", Priority.PROACTIVE, 0);
            ask("b", Priority.PROACTIVE, 1);

            assertThat(underTest.interactionStarted(DESK, at(40)))
                    .containsExactly(new Turn.Preempted("a"), new Turn.DroppedStale("b"));
        }
    }

    @Nested
    class Cancelling {

        @Test
        void cancellingAWaitingRequestRemovesItSoItIsNeverGranted() {
            ask("a", Priority.PROACTIVE, 0);
            ask("fenced", Priority.PROACTIVE, 1);
            ask("c", Priority.PROACTIVE, 2);

            assertThat(underTest.cancel(DESK, "fenced")).isTrue();
            assertThat(underTest.release(DESK, "a", at(3))).containsExactly(new Turn.Granted("c"));
        }

        @Test
        void cancellingWhatIsNotWaitingAnswersFalseAndChangesNothing() {
            ask("a", Priority.PROACTIVE, 0);

            assertThat(underTest.cancel(DESK, "a")).isFalse();
            assertThat(underTest.cancel(DESK, "unknown")).isFalse();
            assertThat(underTest.cancel("other-gadget", "a")).isFalse();
            assertThat(underTest.holder(DESK)).contains("a");
        }

        @Test
        void threeFencedRunsWaitingForTheSpeakerAreAllWithdrawn() {
            ask("holder", Priority.PROACTIVE, 0);
            ask("run-1", Priority.PROACTIVE, 1);
            ask("run-2", Priority.PROACTIVE, 2);
            ask("run-3", Priority.PROACTIVE, 3);

            assertThat(List.of("run-1", "run-2", "run-3")).allSatisfy(t -> assertThat(underTest.cancel(DESK, t)).isTrue());
            assertThat(underTest.release(DESK, "holder", at(4))).isEmpty();
        }
    }

    @Test
    void concurrentRequestsNeverProduceTwoHolders() throws Exception {
        int callers = 16;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Claim>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < callers; i++) {
                String ticket = "t" + i;
                Callable<Claim> request = () -> {
                    go.await();
                    return underTest.request(DESK, ticket, Priority.PROACTIVE, at(0), at(0));
                };
                answers.add(pool.submit(request));
            }
            go.countDown();
            List<Claim> claims = new ArrayList<>();
            for (Future<Claim> answer : answers) {
                claims.add(answer.get());
            }

            assertThat(claims).filteredOn(Claim::granted).hasSize(1);
            assertThat(claims).filteredOn(c -> c instanceof Claim.Queued).hasSize(callers - 1)
                    .extracting(c -> ((Claim.Queued) c).position()).doesNotHaveDuplicates();
        } finally {
            pool.shutdownNow();
        }
        List<String> granted = new ArrayList<>(underTest.holder(DESK).stream().toList());
        while (!underTest.waiting(DESK).isEmpty()) {
            List<Turn> turns = underTest.release(DESK, underTest.holder(DESK).orElseThrow(), at(1));
            assertThat(turns).hasSize(1);
            granted.add(turns.get(0).ticket());
        }
        assertThat(granted).hasSize(callers).doesNotHaveDuplicates();
    }
}
