package dev.ringzero.firmware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ShakeDetectorTest {

    private final ShakeDetector underTest = new ShakeDetector();

    /** Feeds samples 100 ms apart from t0; returns the last detection, if any. */
    private Optional<ShakeDetector.Shake> feed(long t0, double... samples) {
        Optional<ShakeDetector.Shake> found = Optional.empty();
        for (int i = 0; i < samples.length; i++) {
            Optional<ShakeDetector.Shake> s = underTest.onSample(t0 + i * 100L, samples[i]);
            if (s.isPresent()) {
                found = s;
            }
        }
        return found;
    }

    @Test
    void threeSamplesAboveGravityByMoreThanSixTenthsWithinOneSecondAreAShake() {
        Optional<ShakeDetector.Shake> shake = feed(0, 1.7, 1.8, 1.7);

        assertTrue(shake.isPresent());
        assertEquals(200, shake.get().atMillis());
    }

    @Test
    void twoExceedingSamplesAreNotAShake() {
        assertFalse(feed(0, 1.9, 1.0, 2.5, 1.0, 1.0).isPresent());
    }

    @Test
    void samplesExactlySixTenthsAboveGravityDoNotCount() {
        assertFalse(feed(0, 1.6, 1.6, 1.6, 1.6).isPresent());
    }

    @Test
    void exceedingSamplesSpreadOverMoreThanOneSecondAreNotAShake() {
        assertFalse(underTest.onSample(0, 2.0).isPresent());
        assertFalse(underTest.onSample(600, 2.0).isPresent());
        // 1,200 ms after the first one: the first has left the window
        assertFalse(underTest.onSample(1_200, 2.0).isPresent());
        // but 600 and 1,200 and 1,500 are within one second
        assertTrue(underTest.onSample(1_500, 2.0).isPresent());
    }

    @Test
    void peakOfTwoGOrMoreIsHardAndBelowIsGentle() {
        assertEquals("hard", feed(0, 1.7, 2.0, 1.7).orElseThrow().strength());
        underTest.resetCooldown();
        ShakeDetector.Shake gentle = feed(10_000, 1.7, 1.99, 1.7).orElseThrow();

        assertEquals("gentle", gentle.strength());
        assertEquals(1.99, gentle.peakG());
    }

    @Test
    void secondShakeWithinEightSecondsIsSuppressed() {
        assertTrue(feed(0, 2.5, 2.5, 2.5).isPresent());

        assertFalse(feed(7_000, 2.5, 2.5, 2.5).isPresent());
        assertEquals(1, underTest.suppressedCount());
    }

    @Test
    void shakeEightSecondsAfterTheLastOneIsReported() {
        ShakeDetector.Shake first = feed(0, 2.5, 2.5, 2.5).orElseThrow();

        Optional<ShakeDetector.Shake> second = feed(first.atMillis() + 8_000 - 200, 2.5, 2.5, 2.5);

        assertTrue(second.isPresent());
    }

    @Test
    void suppressedShakeDoesNotExtendTheCooldown() {
        feed(0, 2.5, 2.5, 2.5);              // reported at 200
        feed(7_000, 2.5, 2.5, 2.5);          // suppressed at 7,200

        assertTrue(feed(8_000, 2.5, 2.5, 2.5).isPresent());
    }

    @Test
    void zeroCooldownReportsEveryBurst() {
        underTest.setCooldown(Duration.ZERO);

        assertTrue(feed(0, 2.5, 2.5, 2.5).isPresent());
        assertTrue(feed(300, 2.5, 2.5, 2.5).isPresent());
    }

    @Test
    void samplesOutOfOrderAreTreatedAsArrivingNow() {
        underTest.onSample(5_000, 1.0);

        // a burst stamped in the past still counts as one burst, not as ancient history
        assertTrue(feed(0, 2.5, 2.5, 2.5).isPresent());
    }
}
