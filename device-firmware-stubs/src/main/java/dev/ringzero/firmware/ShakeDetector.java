package dev.ringzero.firmware;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Optional;

/**
 * The device SDK's shake detector: the accelerometer is sampled every 100 ms; a
 * shake is at least 3 samples exceeding gravity by more than 0.6 g within 1 s; at
 * most one shake per 8 s; "hard" from a peak of 2.0 g.
 *
 * <p>Samples carry their own timestamps, so tests feed a burst instantly instead of
 * waiting a real second. Timestamps are forced to be non-decreasing, because a
 * synthetic burst and the ambient sampler may interleave.
 */
public final class ShakeDetector {

    public static final double GRAVITY_G = 1.0;
    public static final double EXCESS_G = 0.6;
    public static final int MIN_SAMPLES = 3;
    public static final long WINDOW_MS = 1_000;
    public static final double HARD_G = 2.0;
    public static final Duration DEFAULT_COOLDOWN = Duration.ofSeconds(8);
    public static final long SAMPLE_PERIOD_MS = 100;

    /** A detected shake. */
    public record Shake(long atMillis, double peakG, String strength) {
    }

    private record Sample(long atMillis, double g) {
    }

    private final ArrayDeque<Sample> exceeding = new ArrayDeque<>();
    private long cooldownMs = DEFAULT_COOLDOWN.toMillis();
    private long lastSampleAt = Long.MIN_VALUE;
    private Long lastShakeAt;
    private long suppressed;

    /**
     * Feeds one sample (magnitude of the acceleration vector, in g).
     *
     * @return the shake this sample completes, unless the cooldown suppresses it
     */
    public synchronized Optional<Shake> onSample(long atMillis, double g) {
        long t = Math.max(atMillis, lastSampleAt);
        lastSampleAt = t;
        while (!exceeding.isEmpty() && t - exceeding.peekFirst().atMillis() > WINDOW_MS) {
            exceeding.removeFirst();
        }
        // the epsilon keeps 1.6 g from counting because 1.6 - 1.0 is 0.6000000000000001 in binary
        if (g - GRAVITY_G > EXCESS_G + 1e-9) {
            exceeding.addLast(new Sample(t, g));
        }
        if (exceeding.size() < MIN_SAMPLES) {
            return Optional.empty();
        }
        double peak = exceeding.stream().mapToDouble(Sample::g).max().orElse(g);
        // the burst is used up either way, so its tail cannot start a second shake
        exceeding.clear();
        if (lastShakeAt != null && t - lastShakeAt < cooldownMs) {
            suppressed++;
            return Optional.empty();
        }
        lastShakeAt = t;
        double rounded = Math.round(peak * 100) / 100.0;
        return Optional.of(new Shake(t, rounded, peak >= HARD_G ? "hard" : "gentle"));
    }

    /** Zero disables the cooldown (tests that shake many times). */
    public synchronized void setCooldown(Duration cooldown) {
        this.cooldownMs = cooldown.toMillis();
    }

    /** Forgets the last shake, so the next one is reported whatever the cooldown. */
    public synchronized void resetCooldown() {
        lastShakeAt = null;
    }

    /** Shakes detected but not reported because of the cooldown. */
    public synchronized long suppressedCount() {
        return suppressed;
    }

    /** The detector's notion of now (the latest sample time). */
    public synchronized long lastSampleAt() {
        return lastSampleAt;
    }
}
