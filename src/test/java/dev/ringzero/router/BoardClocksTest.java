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
    private static final long DAY_MS = Duration.ofDays(1).toMillis();
    private final BoardClocks clocks = new BoardClocks();

    private long ageMillis(String gadgetId, long uptimeMs, Instant arrivedAt, Instant now) {
        return clocks.age(gadgetId, uptimeMs, arrivedAt, now).toMillis();
    }

    @Test
    void aLaterEventOfTheSameBoardShowsHowStaleAnEarlierOneIs() {
        // a burst after an outage: both arrive at once, sent 30 s apart by the board's clock
        clocks.arrived("g1", 1_000, T0);
        clocks.arrived("g1", 31_000, T0);

        assertThat(ageMillis("g1", 1_000, T0, T0.plusMillis(200))).isEqualTo(30_200);
        assertThat(ageMillis("g1", 31_000, T0, T0.plusMillis(200))).isEqualTo(200);
    }

    @Test
    void withoutALaterEventAnEventIsAsOldAsItsTimeSinceArrival() {
        assertThat(ageMillis("unknown", 5_000, T0, T0.plusSeconds(2))).isEqualTo(2_000);

        clocks.arrived("g1", 5_000, T0);
        assertThat(ageMillis("g1", 5_000, T0, T0.plusSeconds(2))).isEqualTo(2_000);
        clocks.arrived("g2", 90_000, T0);
        assertThat(ageMillis("g1", 5_000, T0, T0.plusSeconds(2))).as("another board's clock").isEqualTo(2_000);
    }

    @Test
    void afterTheUptimeWentBackwardsTheBoardsClockIsNotUsedForADay() {
        clocks.arrived("g1", 900_000, T0);
        clocks.arrived("g1", 1_000, T0.plusMillis(10)); // a reboot, or a second connection's clock
        clocks.arrived("g1", 31_000, T0.plusMillis(20));

        assertThat(ageMillis("g1", 900_000, T0, T0.plusMillis(30))).isEqualTo(30);
        assertThat(ageMillis("g1", 1_000, T0.plusMillis(10), T0.plusMillis(30))).isEqualTo(20);

        Instant dayLater = T0.plusMillis(10 + DAY_MS);
        clocks.arrived("g1", 1_000 + DAY_MS, dayLater);
        clocks.arrived("g1", 1_000 + DAY_MS + 30_000, dayLater);
        assertThat(ageMillis("g1", 1_000 + DAY_MS, dayLater, dayLater)).as("trusted again").isEqualTo(30_000);
    }

    @Test
    void aSecondClockUnderTheSameGadgetIdIsNotComparedWithTheBoards() {
        long board = 3 * DAY_MS;
        clocks.arrived("g1", board, T0);
        clocks.arrived("g1", 10_000, T0.plusSeconds(1)); // a maker's debugging tool, up for 10 s
        clocks.arrived("g1", board + 2_000, T0.plusSeconds(2)); // the board again, while the tool's event waits

        assertThat(ageMillis("g1", 10_000, T0.plusSeconds(1), T0.plusSeconds(2))).isEqualTo(1_000);
    }

    @Test
    void theArrivalToldLastIsTheLatestWhateverTheWallClockDid() {
        clocks.arrived("g1", 1_000, T0);
        clocks.arrived("g1", 31_000, T0.minusSeconds(60)); // the wall clock stepped back a minute meanwhile

        // a second after the latest arrived, by the same (stepped back) clock: sent 30 s before it
        assertThat(ageMillis("g1", 1_000, T0, T0.minusSeconds(59))).isEqualTo(31_000);
    }

    @Test
    void boardsNotHeardFromForADayAreForgottenOnceInAWhile() {
        for (int board = 0; board < 1023; board++) {
            clocks.arrived("quiet-" + board, 1_000, T0);
        }
        assertThat(clocks.size()).isEqualTo(1023);

        clocks.arrived("new", 1_000, T0.plusMillis(DAY_MS)); // the 1024th arrival sweeps: nothing a day old yet
        assertThat(clocks.size()).isEqualTo(1024);

        for (int more = 1; more <= 1024; more++) {
            clocks.arrived("new", 1_000 + more, T0.plusMillis(DAY_MS + more));
        }
        assertThat(clocks.size()).isEqualTo(1);
    }

    /**
     * A board that boots, sends and reboots, and whose events wait in the broker for any time and
     * arrive in the order sent, some also delivered again later (not told: admission leaves copies
     * out): at every moment the age of every event that arrived is at most its true age.
     */
    @Test
    void theAgeIsNeverMoreThanTheTrueAge() {
        Random random = new Random(42);
        for (int trial = 0; trial < 300; trial++) {
            BoardClocks board = new BoardClocks();
            long boot = random.nextInt(1_000_000);
            long lastArrival = 0;
            List<long[]> arrived = new ArrayList<>(); // {sent at, uptime, arrived at}
            long now = boot;
            for (int event = 0; event < 40; event++) {
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
                arrived.add(new long[] {sent, uptime, arrival});
                long asked = arrival + random.nextInt(10_000);
                for (long[] earlier : arrived) {
                    long age = board.age("g", earlier[1], T0.plusMillis(earlier[2]), T0.plusMillis(asked)).toMillis();
                    assertThat(age).as("trial %d: an event sent at %d, asked at %d", trial, earlier[0], asked)
                            .isLessThanOrEqualTo(asked - earlier[0])
                            .isGreaterThanOrEqualTo(asked - earlier[2]);
                }
            }
        }
    }
}
