package dev.ringzero.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** Where in the spread each session's first run starts: evenly, the first at once, none at its end. */
class SessionLoadTest {

    @Test
    void sessionsStartEvenlyOverTheSpread() {
        Duration spread = Duration.ofMillis(4_000);

        assertThat(SessionLoad.offset(0, 50, spread)).isZero();
        assertThat(SessionLoad.offset(1, 50, spread)).isEqualTo(80);
        assertThat(SessionLoad.offset(25, 50, spread)).isEqualTo(2_000);
        assertThat(SessionLoad.offset(49, 50, spread)).isEqualTo(3_920);
    }

    @Test
    void withoutASpreadEverySessionStartsAtOnce() {
        assertThat(SessionLoad.offset(0, 50, Duration.ZERO)).isZero();
        assertThat(SessionLoad.offset(49, 50, Duration.ZERO)).isZero();
    }
}
