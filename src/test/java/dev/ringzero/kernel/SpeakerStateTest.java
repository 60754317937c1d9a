package dev.ringzero.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

/**
 * A gadget's speaker as a {@link SpeakerState} a book stores and loads: what the arbiter decides
 * from a loaded state is what it would have decided from the line it never let go of.
 */
class SpeakerStateTest {

    private static final String DESK = "desk-1";
    private static final Instant T0 = Instant.parse("2026-12-05T10:00:00Z");
    private static final Duration STALE = SpeakerArbiter.DEFAULT_STALE_AFTER;

    /** A book that keeps nothing but a state written out and read back, as a database keeps it. */
    private static final class CopyingBook implements SpeakerBook {

        Optional<SpeakerState> stored = Optional.empty();
        final AtomicInteger applied = new AtomicInteger();
        boolean retryEachChange;

        @Override
        public Optional<SpeakerState> change(String gadgetId, UnaryOperator<Optional<SpeakerState>> change) {
            Optional<SpeakerState> was = stored;
            if (retryEachChange) {
                change.apply(was); // a first attempt whose transaction failed: nothing of it is kept
                applied.incrementAndGet();
            }
            stored = change.apply(was).map(SpeakerStateTest::copy);
            applied.incrementAndGet();
            return was;
        }

        @Override
        public Optional<SpeakerState> read(String gadgetId) {
            return stored.map(SpeakerStateTest::copy);
        }

        @Override
        public List<String> heldBefore(Instant limit) {
            return stored.filter(state -> state.heldSince() != null && state.heldSince().isBefore(limit))
                    .map(state -> List.of(DESK)).orElse(List.of());
        }
    }

    private static SpeakerState copy(SpeakerState state) {
        return new SpeakerState(state.holder(), state.heldSince(), state.interaction(), List.copyOf(state.waiting()),
                state.arrivals());
    }

    private static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    @Test
    void aLineRoundTripsThroughItsStateUnchanged() {
        SpeakerLine line = new SpeakerLine(STALE);
        line.request("a", Priority.PROACTIVE, at(0), at(0));
        line.request("b", Priority.PROACTIVE, at(1), at(1));
        line.request("c", Priority.APPROVED_GATE, at(2), at(2));
        line.interactionStarted(at(3));

        SpeakerState state = line.state();
        SpeakerLine loaded = SpeakerLine.of(state, STALE);

        assertThat(loaded.state()).isEqualTo(state);
        assertThat(state.holder()).isNull();
        assertThat(state.interaction()).isTrue();
        assertThat(state.waiting()).extracting(SpeakerState.Waiting::ticket).containsExactly("c", "b");
        assertThat(state.arrivals()).isEqualTo(2);
    }

    @Test
    void anArbiterOverAStoredStateDecidesAsOneThatKeptItsLine() {
        SpeakerArbiter kept = new SpeakerArbiter(STALE);
        SpeakerArbiter stored = new SpeakerArbiter(STALE, new CopyingBook());
        for (SpeakerArbiter underTest : List.of(kept, stored)) {
            underTest.request(DESK, "a", Priority.PROACTIVE, at(0), at(0));
            // equal priority and request time: arrival decides, so the counter must survive a load
            underTest.request(DESK, "b", Priority.EXPLICIT, at(1), at(1));
            underTest.request(DESK, "c", Priority.EXPLICIT, at(1), at(1));
            underTest.request(DESK, "d", Priority.PROACTIVE, at(1), at(1));
        }

        assertThat(stored.waiting(DESK)).isEqualTo(kept.waiting(DESK)).containsExactly("b", "c", "d");
        assertThat(stored.release(DESK, "a", at(2))).isEqualTo(kept.release(DESK, "a", at(2)))
                .containsExactly(new Turn.Granted("b"));
        assertThat(stored.interactionStarted(DESK, at(3))).isEqualTo(kept.interactionStarted(DESK, at(3)))
                .containsExactly(new Turn.Preempted("b"));
        assertThat(stored.interactionEnded(DESK, at(40))).isEqualTo(kept.interactionEnded(DESK, at(40)))
                .as("waited past the staleness bound").containsExactly(new Turn.DroppedStale("c"),
                        new Turn.DroppedStale("d"));
    }

    @Test
    void aFreeSpeakerIsNoEntryInTheBook() {
        CopyingBook book = new CopyingBook();
        SpeakerArbiter underTest = new SpeakerArbiter(STALE, book);

        underTest.request(DESK, "a", Priority.PROACTIVE, at(0), at(0));
        assertThat(book.stored).isPresent();
        underTest.release(DESK, "a", at(1));

        assertThat(book.stored).isEmpty();
    }

    @Test
    void aChangeTheBookRetriesAnswersAsItsStoredAttempt() {
        CopyingBook book = new CopyingBook();
        book.retryEachChange = true;
        SpeakerArbiter underTest = new SpeakerArbiter(STALE, book);

        assertThat(underTest.request(DESK, "a", Priority.PROACTIVE, at(0), at(0))).isEqualTo(new Claim.Granted("a"));
        assertThat(underTest.request(DESK, "b", Priority.PROACTIVE, at(1), at(1))).isEqualTo(new Claim.Queued("b", 1));
        assertThat(book.applied).hasValue(4);
        assertThat(underTest.waiting(DESK)).as("queued once, though decided twice").containsExactly("b");
    }

    @Test
    void theHolderHoldsSinceItsGrantOrTheStartOfItsPlayback() {
        CopyingBook book = new CopyingBook();
        SpeakerArbiter underTest = new SpeakerArbiter(STALE, book);
        underTest.request(DESK, "a", Priority.PROACTIVE, at(0), at(0));
        assertThat(book.stored.orElseThrow().heldSince()).isEqualTo(at(0));

        assertThat(underTest.playing(DESK, "someone-else", at(5))).isFalse();
        assertThat(underTest.playing(DESK, "a", at(5))).isTrue();

        assertThat(book.stored.orElseThrow().heldSince()).isEqualTo(at(5));
        assertThat(underTest.heldBefore(at(5))).isEmpty();
        assertThat(underTest.heldBefore(at(6))).containsExactly(DESK);
    }

    @Test
    void aHolderHeldSinceBeforeTheLimitIsFreedAndTheSpeakerHandedOn() {
        SpeakerArbiter underTest = new SpeakerArbiter(STALE, new CopyingBook());
        underTest.request(DESK, "a", Priority.PROACTIVE, at(0), at(0));
        underTest.request(DESK, "b", Priority.EXPLICIT, at(10), at(10));

        assertThat(underTest.releaseHeldBefore(DESK, at(0), at(20))).as("held since the limit: kept").isEmpty();
        assertThat(underTest.releaseHeldBefore(DESK, at(1), at(20))).containsExactly(new Turn.Granted("b"));
        assertThat(underTest.holder(DESK)).contains("b");
        assertThat(underTest.releaseHeldBefore(DESK, at(1), at(20))).as("b holds since its turn came").isEmpty();
    }

    @Test
    void aHolderAndItsTimeGoTogether() {
        assertThatExceptionOfType(IllegalArgumentException.class)
                .isThrownBy(() -> new SpeakerState("a", null, false, List.of(), 0));
        assertThatExceptionOfType(IllegalArgumentException.class)
                .isThrownBy(() -> new SpeakerState(null, T0, false, List.of(), 0));
    }

    @Test
    void claimedByTellsHoldersAndWaitersFromStrangers() {
        SpeakerArbiter underTest = new SpeakerArbiter(STALE, new CopyingBook());
        underTest.request(DESK, "a", Priority.PROACTIVE, at(0), at(0));
        underTest.request(DESK, "b", Priority.PROACTIVE, at(0), at(0));

        assertThat(underTest.claimedBy(DESK, "a")).isTrue();
        assertThat(underTest.claimedBy(DESK, "b")).isTrue();
        assertThat(underTest.claimedBy(DESK, "c")).isFalse();
    }
}
