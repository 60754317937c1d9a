package dev.ringzero.router;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class BoardClocksTest {

    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private final BoardClocks clocks = new BoardClocks(Duration.ofSeconds(5));

    @Test
    void aLaterEventOfTheSameBoardShowsHowStaleAnEarlierOneIs() {
        // a burst after an outage: both arrive at once, sent 30 s apart by the board's clock
        clocks.arrived("g1", 1_000, T0);
        clocks.arrived("g1", 31_000, T0);

        assertThat(clocks.sentAtLeastAgo("g1", 1_000, T0.plusMillis(200))).isEqualTo(Duration.ofMillis(30_200));
        assertThat(clocks.sentAtLeastAgo("g1", 31_000, T0.plusMillis(200))).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void withoutALaterEventTheBoardsClockSaysNothingMoreThanTheArrival() {
        assertThat(clocks.sentAtLeastAgo("unknown", 5_000, T0)).isEqualTo(Duration.ZERO);

        clocks.arrived("g1", 5_000, T0);
        assertThat(clocks.sentAtLeastAgo("g1", 5_000, T0.plusSeconds(2))).isEqualTo(Duration.ofSeconds(2));
        assertThat(clocks.sentAtLeastAgo("g2", 5_000, T0.plusSeconds(2))).as("another board's clock")
                .isEqualTo(Duration.ZERO);
    }

    @Test
    void anEventFromBeforeARebootIsNeverMadeOlderThanItCouldBe() {
        clocks.arrived("g1", 900_000, T0);
        clocks.arrived("g1", 1_000, T0.plusMillis(10)); // the board restarted its clock

        assertThat(clocks.sentAtLeastAgo("g1", 900_000, T0.plusMillis(10))).isEqualTo(Duration.ZERO);
    }

    @Test
    void theLatestArrivalIsKeptWhateverOrderItIsToldIn() {
        clocks.arrived("g1", 31_000, T0.plusMillis(5));
        clocks.arrived("g1", 1_000, T0); // told late, arrived first

        assertThat(clocks.sentAtLeastAgo("g1", 1_000, T0.plusMillis(5))).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void arrivalsOlderThanTheShedBoundAreForgottenOnceInAWhile() {
        for (int board = 0; board < 1023; board++) {
            clocks.arrived("old-" + board, 1_000, T0);
        }
        assertThat(clocks.size()).isEqualTo(1023);

        clocks.arrived("new", 1_000, T0.plusSeconds(6)); // the 1024th arrival sweeps

        assertThat(clocks.size()).isEqualTo(1);
        assertThat(clocks.sentAtLeastAgo("new", 1_000, T0.plusSeconds(6))).isEqualTo(Duration.ZERO);
    }

    /**
     * Boards that boot, send, reboot, and whose events wait in the broker for any time, arriving in
     * the order sent: at every moment the bound of every event that arrived is at most its true age.
     */
    @Test
    void theBoundIsNeverMoreThanTheTrueAge() {
        Random random = new Random(42);
        for (int trial = 0; trial < 200; trial++) {
            BoardClocks board = new BoardClocks(Duration.ofSeconds(5));
            long boot = random.nextInt(1_000_000);
            long lastArrival = 0;
            List<long[]> arrived = new ArrayList<>(); // {sent at, uptime}
            long now = boot;
            for (int event = 0; event < 30; event++) {
                now += random.nextInt(5_000);
                if (random.nextInt(10) == 0) {
                    boot = now; // a reboot: the board's clock starts again from zero
                }
                long sent = now;
                long uptime = sent - boot;
                long delay = random.nextInt(4) == 0 ? random.nextInt(60_000) : random.nextInt(50);
                long arrival = Math.max(lastArrival, sent + delay); // one connection: in the order sent
                lastArrival = arrival;
                board.arrived("g", uptime, T0.plusMillis(arrival));
                arrived.add(new long[] {sent, uptime});
                long asked = arrival + random.nextInt(10_000);
                for (long[] earlier : arrived) {
                    Duration bound = board.sentAtLeastAgo("g", earlier[1], T0.plusMillis(asked));
                    assertThat(bound.toMillis()).as("trial %d: an event sent at %d, asked at %d", trial, earlier[0], asked)
                            .isLessThanOrEqualTo(asked - earlier[0]);
                }
            }
        }
    }
}
