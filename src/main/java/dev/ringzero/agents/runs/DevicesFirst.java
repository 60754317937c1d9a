package dev.ringzero.agents.runs;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Work that a person or a model asked for, done after this node's device reactions: an llm
 * session's reply, the wake of a session by its command's answer, a run a client starts. It starts
 * once no device event waits to be routed here (or its yield has passed, whatever the backlog),
 * and at most half the node's cores (one on two) do such work at once: fifty sessions in step send
 * their replies, have their commands answered, and ask for their next runs together, and unbounded
 * they would take every core from the device events that come next.
 */
@Component
public class DevicesFirst {

    private static final Logger log = LoggerFactory.getLogger(DevicesFirst.class);
    private static final int SLOTS = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    /** Work handed over ({@link #later}) and not started yet; beyond it, work is left to its sweep. */
    private static final int QUEUED_AT_MOST = 10_000;

    private final EventBacklog events;
    private final Semaphore slots = new Semaphore(SLOTS, true);
    /** The slot this thread holds from {@link Slot#take} to its close, if any. */
    private final ThreadLocal<Slot> holding = new ThreadLocal<>();
    /** The gate's own threads, one per slot, for work handed over; idle ones end after a minute. */
    private final ThreadPoolExecutor own;

    @org.springframework.beans.factory.annotation.Autowired
    DevicesFirst(ObjectProvider<EventBacklog> events) {
        this(events.getIfAvailable(() -> EventBacklog.NONE));
    }

    public DevicesFirst(EventBacklog events) {
        this.events = events;
        AtomicInteger count = new AtomicInteger();
        this.own = new ThreadPoolExecutor(SLOTS, SLOTS, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(QUEUED_AT_MOST),
                runnable -> {
                    Thread thread = new Thread(runnable, "devices-first-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        own.allowCoreThreadTimeOut(true);
    }

    /** Does {@code work} once the devices had their turn, waiting {@code yield} at most for them. */
    public <T> T after(Duration yield, Supplier<T> work) {
        return until(System.nanoTime() + yield.toNanos(), work);
    }

    /**
     * Hands {@code work} over, to be done on one of the gate's own threads (one per slot) once the
     * devices had their turn: it waits for the device events at most until {@code yield} from now,
     * so work queued behind other work waits no longer for the backlog once that time has passed,
     * only for a thread. Work that is never done (more than {@value #QUEUED_AT_MOST} queued, the
     * node stopping, the work failing) is logged and dropped: only work whose record a sweep
     * watches may be handed over, so that the sweep does it later.
     */
    public void later(Duration yield, Runnable work) {
        long until = System.nanoTime() + yield.toNanos();
        try {
            own.execute(() -> {
                try {
                    until(until, () -> {
                        work.run();
                        return null;
                    });
                } catch (RuntimeException e) {
                    log.warn("work done after the devices failed (its sweep does it later)", e);
                }
            });
        } catch (RejectedExecutionException e) {
            log.warn("work after the devices not queued (its sweep does it later): {}", e.toString());
        }
    }

    /**
     * A slot this thread takes later, at a moment only it knows, and holds until the slot is
     * closed: an llm worker takes it when its model's reply begins to arrive and holds it while it
     * reads, records and acts on the reply, so the node's session work runs on one slot's threads
     * at a time, reading a reply included, not on as many threads as replies arrive together.
     * Work this thread hands to {@link #after} meanwhile runs at once, in the slot it holds.
     */
    public Slot slot(Duration yield) {
        return new Slot(yield);
    }

    /** See {@link #slot}; closing a slot never taken does nothing. */
    public final class Slot implements AutoCloseable {

        private final Duration yield;
        private boolean taken;
        private boolean held;

        private Slot(Duration yield) {
            this.yield = yield;
        }

        /** Takes the slot once the devices had their turn, waiting {@code yield} at most for them. */
        public void take() {
            if (taken || holding.get() != null) {
                return;
            }
            taken = true;
            held = acquire(System.nanoTime() + yield.toNanos());
            holding.set(this);
        }

        @Override
        public void close() {
            if (!taken) {
                return;
            }
            taken = false;
            holding.remove();
            if (held) {
                held = false;
                slots.release();
            }
        }
    }

    private <T> T until(long until, Supplier<T> work) {
        if (holding.get() != null) {
            return work.get();
        }
        boolean held = acquire(until);
        try {
            return work.get();
        } finally {
            if (held) {
                slots.release();
            }
        }
    }

    /** Whether a slot was taken (by {@code until}, the wait goes on without one); then the devices' turn. */
    private boolean acquire(long until) {
        boolean held = false;
        try {
            held = slots.tryAcquire(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
            events.awaitQuiet(Duration.ofNanos(Math.max(0, until - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return held;
    }

    /** Work not started is dropped as the node stops (its sweep does it, on this node or another). */
    @jakarta.annotation.PreDestroy
    void stop() {
        own.shutdownNow();
    }
}
