package dev.ringzero.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.UUID;

import dev.ringzero.kernel.Claim;
import dev.ringzero.kernel.Priority;
import dev.ringzero.support.PlatformTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The speaker floor follows the transaction of the step that uses it: what a rolled-back step did
 * (a batch that failed and is done again item by item) never frees, holds or claims a speaker.
 */
class SpeakerFloorTransactionsTest extends PlatformTest {

    @Autowired
    SpeakerFloor floor;
    @Autowired
    PlatformTransactionManager transactionManager;

    private final String gadget = "floor-" + UUID.randomUUID();

    @Test
    void aRolledBackStepNeitherEndsAPlaybackNorKeepsItsClaim() {
        assertThat(floor.request(gadget, "first", Priority.PROACTIVE, Instant.now())).isInstanceOf(Claim.Granted.class);
        floor.playing("inv-first", gadget, "first");

        rolledBack(() -> floor.ended("inv-first"));
        assertThat(floor.holder(gadget)).as("the playback's end was never committed").contains("first");

        rolledBack(() -> assertThat(floor.request(gadget, "second", Priority.PROACTIVE, Instant.now()))
                .isInstanceOf(Claim.Queued.class));
        assertThat(floor.waiting(gadget)).as("a claim of a step that rolled back is given back").isEmpty();

        committed(() -> {
            floor.ended("inv-first");
            assertThat(floor.holder(gadget)).as("not before the step commits").contains("first");
        });
        assertThat(floor.holder(gadget)).isEmpty();
    }

    @Test
    void aHoldTakesEffectWhenItsStepCommits() {
        committed(() -> {
            assertThat(floor.request(gadget, "sound", Priority.EXPLICIT, Instant.now())).isInstanceOf(Claim.Granted.class);
            floor.playing("inv-sound", gadget, "sound");
        });
        assertThat(floor.holder(gadget)).contains("sound");

        floor.ended("inv-sound"); // outside a transaction (the device's speaker_idle): at once
        assertThat(floor.holder(gadget)).isEmpty();
    }

    @Test
    void aRolledBackStepGivesBackBothItsGrantAndItsQueuedClaim() {
        rolledBack(() -> {
            assertThat(floor.request(gadget, "a", Priority.PROACTIVE, Instant.now())).isInstanceOf(Claim.Granted.class);
            assertThat(floor.request(gadget, "b", Priority.PROACTIVE, Instant.now())).isInstanceOf(Claim.Queued.class);
        });

        assertThat(floor.holder(gadget)).isEmpty();
        assertThat(floor.waiting(gadget)).isEmpty();
    }

    @Test
    void aRolledBackStepKeepsTheGrantItsTicketHadBefore() {
        assertThat(floor.request(gadget, "woken", Priority.EXPLICIT, Instant.now())).isInstanceOf(Claim.Granted.class);

        // the woken run's step asks again (it is granted: its turn came) and then fails
        rolledBack(() -> assertThat(floor.request(gadget, "woken", Priority.EXPLICIT, Instant.now()))
                .isInstanceOf(Claim.Granted.class));

        assertThat(floor.holder(gadget)).as("its retry still holds the turn it was woken for").contains("woken");
    }

    private void rolledBack(Runnable step) {
        new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
            step.run();
            status.setRollbackOnly();
        });
    }

    private void committed(Runnable step) {
        new TransactionTemplate(transactionManager).executeWithoutResult(status -> step.run());
    }
}
