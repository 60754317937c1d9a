package dev.ringzero.router;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.ringzero.agents.runs.EventBacklog;
import org.springframework.stereotype.Component;

/**
 * The device events this node's admission holds and has not routed yet: counted as they queue
 * and as their batch ends (routed, shed, or left for the broker to deliver again). Whoever waits
 * for none is woken when the count falls to zero.
 */
@Component
class RoutingBacklog implements EventBacklog {

    private final AtomicInteger waiting = new AtomicInteger();
    private final Object quiet = new Object();

    void queued() {
        waiting.incrementAndGet();
    }

    void done(int events) {
        if (waiting.addAndGet(-events) <= 0) {
            synchronized (quiet) {
                quiet.notifyAll();
            }
        }
    }

    @Override
    public boolean awaitQuiet(Duration max) throws InterruptedException {
        long until = System.nanoTime() + max.toNanos();
        synchronized (quiet) {
            for (long left = max.toNanos(); waiting.get() > 0 && left > 0; left = until - System.nanoTime()) {
                quiet.wait(Math.max(1, left / 1_000_000));
            }
        }
        return waiting.get() <= 0;
    }
}
