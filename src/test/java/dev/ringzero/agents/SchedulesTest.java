package dev.ringzero.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Schedule instants computed from a given clock reading — no waiting, DST on purpose. */
class SchedulesTest {

    private static final ZoneId LOS_ANGELES = ZoneId.of("America/Los_Angeles");

    private static List<Instant> fires(String cron, ZoneId zone, Instant from, int count) {
        List<Instant> fires = new ArrayList<>();
        Instant at = from;
        for (int i = 0; i < count; i++) {
            at = Schedules.nextFire(cron, zone, at);
            fires.add(at);
        }
        return fires;
    }

    @Test
    void weekdayMorningsFireAtEightLocalTimeOnBothSidesOfSpringForward() {
        List<Instant> fires = fires("0 8 * * 1-5", LOS_ANGELES, Instant.parse("2026-03-06T17:00:00Z"), 2);

        // Friday 6 March at 08:00 PST was before 'from' (17:00Z = 09:00 PST); Monday 9 March is PDT
        assertThat(fires).containsExactly(Instant.parse("2026-03-09T15:00:00Z"), Instant.parse("2026-03-10T15:00:00Z"));
    }

    @Test
    void aTimeInsideTheSpringForwardGapRunsOnceShiftedByTheGap() {
        List<Instant> fires = fires("30 2 * * *", LOS_ANGELES, Instant.parse("2026-03-07T20:00:00Z"), 3);

        assertThat(fires).containsExactly(
                Instant.parse("2026-03-08T10:30:00Z"),   // 8 March: 02:30 does not exist → 03:30 PDT
                Instant.parse("2026-03-09T09:30:00Z"),   // 02:30 PDT
                Instant.parse("2026-03-10T09:30:00Z"));
    }

    @Test
    void aTimeThatOccursTwiceAtFallBackRunsOnceAtItsFirstOccurrence() {
        List<Instant> fires = fires("30 1 * * *", LOS_ANGELES, Instant.parse("2026-10-31T20:00:00Z"), 2);

        assertThat(fires).containsExactly(
                Instant.parse("2026-11-01T08:30:00Z"),   // 01:30 PDT, the first of the two 01:30s
                Instant.parse("2026-11-02T09:30:00Z"));  // 01:30 PST the next day; no second run on 1 November
    }

    @Test
    void theNextFireIsStrictlyAfterTheGivenInstant() {
        Instant eight = Instant.parse("2026-06-01T15:00:00Z");

        assertThat(Schedules.nextFire("0 8 * * *", LOS_ANGELES, eight)).isEqualTo(Instant.parse("2026-06-02T15:00:00Z"));
    }
}
