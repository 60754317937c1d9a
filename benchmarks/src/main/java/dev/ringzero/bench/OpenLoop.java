package dev.ringzero.bench;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * Sends on a fixed schedule, whatever happened to earlier sends: send k leaves at start + k / rate.
 * One dedicated thread; if it falls behind it catches up at once, and the lag is recorded, so a
 * generator that could not keep the schedule is visible in the report instead of hiding latency.
 */
final class OpenLoop {

    private final Latency lag = new Latency();
    private volatile long start;

    /**
     * @param rate   sends per second
     * @param count  how many
     * @param action called with k for every send, on this thread
     * @return the start instant (System.nanoTime)
     */
    long run(double rate, long count, LongConsumer action) {
        start = System.nanoTime() + 5_000_000L;
        double interval = 1e9 / rate;
        for (long k = 0; k < count; k++) {
            long due = start + (long) (k * interval);
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
