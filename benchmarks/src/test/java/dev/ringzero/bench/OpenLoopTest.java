package dev.ringzero.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class OpenLoopTest {

    @Test
    void theRampSendsTheIntegralOfItsRateThenTheFullRate() {
        OpenLoop.Schedule s = new OpenLoop.Schedule(100, 30, 60);
        // from 10/s to 100/s over 30 s: (10 + 100) / 2 × 30
        assertThat(s.warmupCount()).isEqualTo(1650);
        assertThat(s.count()).isEqualTo(1650 + 6000);
        assertThat(s.due(s.warmupCount())).isCloseTo(30.0, within(1e-9));
        assertThat(s.due(s.warmupCount() + 100)).isCloseTo(31.0, within(1e-9));
        assertThat(s.due(s.count() - 1)).isCloseTo(90.0 - 0.01, within(1e-9));
    }

    @Test
    void sendsLeaveInOrderAndTheRampEndsWhereTheFullRateBegins() {
        OpenLoop.Schedule s = new OpenLoop.Schedule(250, 150, 60);
        double previous = -1;
        for (long k = 0; k < s.count(); k++) {
            double due = s.due(k);
            assertThat(due).isGreaterThan(previous);
            previous = due;
        }
        // the ramp's first sends at about a tenth of the rate, its last at about the full rate
        assertThat(1 / (s.due(1) - s.due(0))).isCloseTo(25, within(1.0));
        long warm = s.warmupCount();
        assertThat(1 / (s.due(warm - 1) - s.due(warm - 2))).isCloseTo(250, within(2.0));
        // no jump at the seam: the gap there is one send at the full rate
        assertThat(s.due(warm) - s.due(warm - 1)).isCloseTo(1 / 250.0, within(1e-4));
    }

    @Test
    void withoutWarmUpSendKLeavesAtKOverTheRate() {
        OpenLoop.Schedule s = new OpenLoop.Schedule(50, 0, 2);
        assertThat(s.warmupCount()).isZero();
        assertThat(s.count()).isEqualTo(100);
        assertThat(s.due(0)).isZero();
        assertThat(s.due(49)).isCloseTo(0.98, within(1e-9));
    }

    @Test
    void runKeepsTheScheduleAndRecordsHowLateEachSendLeft() {
        OpenLoop loop = new OpenLoop();
        List<Long> sentAt = new ArrayList<>();
        List<Long> ks = new ArrayList<>();
        long start = loop.run(200, 40, k -> {
            ks.add(k);
            sentAt.add(System.nanoTime());
        });
        assertThat(ks).hasSize(40).startsWith(0L, 1L, 2L).endsWith(39L);
        for (int k = 0; k < 40; k++) {
            // never early: a send leaves at or after its due time (5 ms apart at 200/s)
            assertThat(sentAt.get(k) - start).isGreaterThanOrEqualTo(k * 5_000_000L - 1_000);
        }
        assertThat(loop.lag().count()).isEqualTo(40);
        assertThat(loop.start()).isEqualTo(start);
    }
}
