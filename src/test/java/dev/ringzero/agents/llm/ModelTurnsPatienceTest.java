package dev.ringzero.agents.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

/** How long a model's reply waits for a devices-first slot before it goes on beside another's work. */
class ModelTurnsPatienceTest {

    private static final Instant NOW = Instant.parse("2026-12-07T10:00:00Z");
    private static final Duration YIELD = Duration.ofSeconds(1);

    @Test
    void aReplyWaitsForASlotUntilItsTurnsDeadlineLessTheTimeToRecordIt() {
        assertThat(ModelTurns.patience(NOW, NOW.plusSeconds(62), YIELD)).isEqualTo(Duration.ofSeconds(61));
    }

    @Test
    void aReplyNearItsDeadlineStillWaitsItsYield() {
        assertThat(ModelTurns.patience(NOW, NOW.plusMillis(1_500), YIELD)).isEqualTo(YIELD);
        assertThat(ModelTurns.patience(NOW, NOW.minusSeconds(3), YIELD)).isEqualTo(YIELD);
    }

    @Test
    void aResumedTurnWhoseDeadlineIsNotKnownWaitsItsYield() {
        assertThat(ModelTurns.patience(NOW, null, YIELD)).isEqualTo(YIELD);
    }
}
