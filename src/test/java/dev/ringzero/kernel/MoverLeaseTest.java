package dev.ringzero.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link MoverLease}: one mover per gadget, never for long, and a stop always goes through. */
class MoverLeaseTest {

    private static final String ROVER = "rover-1";
    private static final Instant T0 = Instant.parse("2025-06-02T10:00:00Z");

    private final MoverLease underTest = new MoverLease();

    @Test
    void aFreeGadgetIsLeasedForTheDurationAskedFor() {
        assertThat(underTest.acquire(ROVER, "a", Duration.ofSeconds(3), T0)).isEqualTo(new Lease.Granted("a", T0.plusSeconds(3)));
        assertThat(underTest.holder(ROVER, T0)).contains("a");
    }

    @Test
    void aSecondMoverIsToldWhoIsMovingAndUntilWhen() {
        underTest.acquire(ROVER, "a", Duration.ofSeconds(3), T0);

        assertThat(underTest.acquire(ROVER, "b", Duration.ofSeconds(3), T0.plusSeconds(1)))
                .isEqualTo(new Lease.Busy("a", T0.plusSeconds(3)));
    }

    @Test
    void anExpiredLeaseIsFree() {
        underTest.acquire(ROVER, "a", Duration.ofSeconds(3), T0);

        assertThat(underTest.holder(ROVER, T0.plusSeconds(3))).isEmpty();
        assertThat(underTest.acquire(ROVER, "b", Duration.ofSeconds(2), T0.plusSeconds(3)))
                .isEqualTo(new Lease.Granted("b", T0.plusSeconds(5)));
    }

    @Test
    void aLeaseOneMomentBeforeExpiryIsStillHeld() {
        underTest.acquire(ROVER, "a", Duration.ofSeconds(3), T0);

        assertThat(underTest.acquire(ROVER, "b", Duration.ofSeconds(1), T0.plusMillis(2999)))
                .isInstanceOf(Lease.Busy.class);
    }

    @Test
    void noMoveLastsLongerThanTenSeconds() {
        assertThat(underTest.acquire(ROVER, "a", Duration.ofMinutes(5), T0)).isEqualTo(new Lease.Granted("a", T0.plusSeconds(10)));
    }

    @Test
    void theBoundIsConfigurable() {
        MoverLease brief = new MoverLease(Duration.ofSeconds(2));

        assertThat(brief.acquire(ROVER, "a", Duration.ofSeconds(5), T0)).isEqualTo(new Lease.Granted("a", T0.plusSeconds(2)));
    }

    @Test
    void theHolderMayRenewWithinTheBound() {
        underTest.acquire(ROVER, "a", Duration.ofSeconds(3), T0);

        assertThat(underTest.acquire(ROVER, "a", Duration.ofSeconds(30), T0.plusSeconds(2)))
                .isEqualTo(new Lease.Granted("a", T0.plusSeconds(12)));
    }

    @Test
    void aShorterRenewalKeepsTheLongerLease() {
        underTest.acquire(ROVER, "a", Duration.ofSeconds(8), T0);

        assertThat(underTest.acquire(ROVER, "a", Duration.ofSeconds(1), T0.plusSeconds(2)))
                .isEqualTo(new Lease.Granted("a", T0.plusSeconds(8)));
        assertThat(underTest.acquire(ROVER, "b", Duration.ofSeconds(1), T0.plusSeconds(5))).isInstanceOf(Lease.Busy.class);
    }

    @Test
    void aStopEndsWhateverLeaseIsHeld() {
        underTest.acquire(ROVER, "a", Duration.ofSeconds(10), T0);

        assertThat(underTest.stop(ROVER, T0.plusSeconds(1))).contains("a");
        assertThat(underTest.holder(ROVER, T0.plusSeconds(1))).isEmpty();
        assertThat(underTest.acquire(ROVER, "b", Duration.ofSeconds(1), T0.plusSeconds(1))).isInstanceOf(Lease.Granted.class);
    }

    @Test
    void aStopGoesThroughWhenNothingMoves() {
        assertThat(underTest.stop(ROVER, T0)).isEmpty();
        underTest.acquire(ROVER, "a", Duration.ofSeconds(1), T0);
        assertThat(underTest.stop(ROVER, T0.plusSeconds(5))).isEmpty();
    }

    @Test
    void releasingEndsOnlyTheHoldersLease() {
        underTest.acquire(ROVER, "a", Duration.ofSeconds(10), T0);

        assertThat(underTest.release(ROVER, "b")).isFalse();
        assertThat(underTest.holder(ROVER, T0)).contains("a");
        assertThat(underTest.release(ROVER, "a")).isTrue();
        assertThat(underTest.holder(ROVER, T0)).isEmpty();
    }

    @Test
    void releasingNeverFails() {
        assertThat(underTest.release("never-leased", "x")).isFalse();
    }

    @Test
    void gadgetsHaveSeparateLeases() {
        underTest.acquire(ROVER, "a", Duration.ofSeconds(10), T0);

        assertThat(underTest.acquire("arm-1", "b", Duration.ofSeconds(10), T0)).isInstanceOf(Lease.Granted.class);
    }

    @Test
    void aMoveNeedsAPositiveDuration() {
        assertThatExceptionOfType(IllegalArgumentException.class)
                .isThrownBy(() -> underTest.acquire(ROVER, "a", Duration.ZERO, T0));
        assertThatExceptionOfType(IllegalArgumentException.class)
                .isThrownBy(() -> new MoverLease(Duration.ofSeconds(-1)));
    }
}
