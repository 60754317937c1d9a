package dev.ringzero.bench;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * Sends on a fixed schedule, whatever happened to earlier sends: send k leaves at start + due(k).
 * One dedicated thread; if it falls behind it catches up at once, and the lag is recorded, so a
 * generator that could not keep the schedule is visible in the report instead of hiding latency.
 */
final class OpenLoop {

    private final Latency lag = new Latency();
    private volatile long start;

    /**
     * A warm-up that ramps linearly from a tenth of {@code rate} to {@code rate} over
     * {@code warmupSeconds}, then {@code rate} for {@code seconds}: send k's offset from the start in
     * seconds. A cold JVM compiles its hot paths during the ramp instead of building a backlog that
     * would spill into the measured phase.
     */
    record Schedule(double rate, double warmupSeconds, double seconds) {

        /** Sends in the warm-up: the integral of the ramp. */
        long warmupCount() {
            return Math.round(warmupSeconds * (rate / 10 + rate) / 2);
        }

        long count() {
            return warmupCount() + Math.round(rate * seconds);
        }

        double due(long k) {
            long warm = warmupCount();
            if (k >= warm) {
                return warmupSeconds + (k - warm) / rate;
            }
            // k = r0 t + a t^2, with a = (rate - r0) / (2 W): the positive root
            double r0 = rate / 10;
            double a = (rate - r0) / (2 * warmupSeconds);
            return (-r0 + Math.sqrt(r0 * r0 + 4 * a * k)) / (2 * a);
        }
    }

    /** {@code count} sends at a fixed {@code rate}, no warm-up. */
    long run(double rate, long count, LongConsumer action) {
        return run(new Schedule(rate, 0, count / rate), action);
    }

    /**
     * @param schedule when each send leaves
     * @param action   called with k for every send, on this thread
     * @return the start instant (System.nanoTime)
     */
    long run(Schedule schedule, LongConsumer action) {
        start = System.nanoTime() + 5_000_000L;
        long count = schedule.count();
        for (long k = 0; k < count; k++) {
            long due = start + (long) (schedule.due(k) * 1e9);
            long now;
            while ((now = System.nanoTime()) < due) {
                long wait = due - now;
                if (wait > 100_000) {
                    LockSupport.parkNanos(wait - 60_000);
                } else {
                    Thread.onSpinWait();
                }
            }
            lag.recordNanos(now - due);
            action.accept(k);
        }
        return start;
    }

    /** System.nanoTime of send 0. */
    long start() {
        return start;
    }

    /** How late each send left against its schedule. */
    Latency lag() {
        return lag;
    }
}
