package dev.ringzero.agents.runs;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Work that a person or a model asked for, done after this node's device reactions: an llm
 * session's reply, a run a client starts. It starts once no device event waits to be routed here
 * (or its yield has passed, whatever the backlog), and at most half the node's cores (one on two)
 * do such work at once: fifty sessions in step send their replies, and ask for their next runs,
 * together, and unbounded they would take every core from the device events that come next.
 */
@Component
public class DevicesFirst {

    private final EventBacklog events;
    private final Semaphore slots = new Semaphore(Math.max(1, Runtime.getRuntime().availableProcessors() / 2), true);

    @org.springframework.beans.factory.annotation.Autowired
    DevicesFirst(ObjectProvider<EventBacklog> events) {
        this(events.getIfAvailable(() -> EventBacklog.NONE));
    }

    public DevicesFirst(EventBacklog events) {
        this.events = events;
    }

    /** Does {@code work} once the devices had their turn, waiting {@code yield} at most for them. */
    public <T> T after(Duration yield, Supplier<T> work) {
        long until = System.nanoTime() + yield.toNanos();
        boolean held = false;
        try {
            held = slots.tryAcquire(yield.toNanos(), TimeUnit.NANOSECONDS);
            events.awaitQuiet(Duration.ofNanos(Math.max(0, until - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            return work.get();
        } finally {
            if (held) {
                slots.release();
            }
        }
    }
}
