package dev.ringzero.agents.runs;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Work that a person or a model asked for, done after this node's device reactions: an llm
 * session's reply, the wake of a session by its command's answer, a run a client starts. It starts
 * once no device event waits to be routed here (or its yield has passed, whatever the backlog),
 * and at most half the node's cores (one on two) do such work at once, each waiting for a slot as
 * long as its own deadline allows (its patience) and counted, taken or missed, in
 * {@code ringzero.devices_first.wait}: fifty sessions in step send
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
    /** The waits for a slot, by how they ended: a slot taken, or none in time (the work went on without one). */
    private final Timer taken;
    private final Timer missed;

    @org.springframework.beans.factory.annotation.Autowired
    DevicesFirst(ObjectProvider<EventBacklog> events, ObjectProvider<MeterRegistry> meters) {
        this(events.getIfAvailable(() -> EventBacklog.NONE), meters.getIfAvailable(SimpleMeterRegistry::new));
    }

    public DevicesFirst(EventBacklog events) {
        this(events, new SimpleMeterRegistry());
    }

    public DevicesFirst(EventBacklog events, MeterRegistry meters) {
        this.events = events;
        this.taken = waits(meters, "taken");
        this.missed = waits(meters, "missed");
        AtomicInteger count = new AtomicInteger();
        this.own = new ThreadPoolExecutor(SLOTS, SLOTS, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(QUEUED_AT_MOST),
                runnable -> {
                    Thread thread = new Thread(runnable, "devices-first-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        own.allowCoreThreadTimeOut(true);
    }

    /**
     * Does {@code work} once the devices had their turn, waiting {@code yield} at most for a slot
     * and the devices together (a client waits for it: a run started over REST or MCP).
     */
    public <T> T after(Duration yield, Supplier<T> work) {
        return after(yield, yield, work);
    }

    /**
     * Does {@code work} in a slot once the devices had their turn: it waits for a slot
     * {@code patience} at most, then for the device events {@code yield} at most (what is left of
     * the patience, if less). Only once the patience has passed does the work go on without a
     * slot, beside another's (counted as {@code missed}): a slot missed in a burst is the burst
     * the slot exists to prevent, so work with time to spare gives a patience as long as its own
     * deadline allows.
     */
    public <T> T after(Duration yield, Duration patience, Supplier<T> work) {
        // a slot taken at once: on a thread that holds one already, take() holds nothing more
        try (Slot slot = slot(yield, patience)) {
            slot.take();
            return work.get();
        }
    }

    /**
     * Hands {@code work} over, to be done on one of the gate's own threads (one per slot) as
     * {@link #after(Duration, Duration, Supplier)} does it, its patience counted from now (so work
     * queued behind other work waits no longer than it for a slot). Work that is never done (more
     * than {@value #QUEUED_AT_MOST} queued, the node stopping, the work failing) is logged and
     * dropped: only work whose record a sweep watches may be handed over, so that the sweep does
     * it later.
     */
    public void later(Duration yield, Duration patience, Runnable work) {
        long until = System.nanoTime() + patience.toNanos();
        try {
            own.execute(() -> {
                try {
                    after(yield, Duration.ofNanos(Math.max(0, until - System.nanoTime())), () -> {
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
     * Work this thread hands to {@link #after} meanwhile runs at once, in the slot it holds. The
     * take waits for a slot until {@code patience} from now at most (the reply's own deadline,
     * less what recording it takes), then for the devices {@code yield} at most.
     */
    public Slot slot(Duration yield, Duration patience) {
        return new Slot(yield, System.nanoTime() + patience.toNanos());
    }

    /** See {@link #slot}; closing a slot never taken does nothing. */
    public final class Slot implements AutoCloseable {

        private final Duration yield;
        private final long until;
        private boolean taken;
        private boolean held;

        private Slot(Duration yield, long until) {
            this.yield = yield;
            this.until = until;
        }

        /** Takes the slot once the devices had their turn (see {@link DevicesFirst#slot}). */
        public void take() {
            if (taken || holding.get() != null) {
                return;
            }
            taken = true;
            held = acquire(yield, until);
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

    private static Timer waits(MeterRegistry meters, String slot) {
        return Timer.builder("ringzero.devices_first.wait")
                .description("waits of a model's reply, a session's wake or a client's run for a slot after the "
                        + "devices: slot=taken, or missed (none free within its patience: the work went on beside "
                        + "another)")
                .tag("slot", slot).register(meters);
    }

    /**
     * Whether a slot was taken by {@code until} (past it the work goes on without one); then the
     * devices' turn, {@code yield} at most and never past {@code until}.
     */
    private boolean acquire(Duration yield, long until) {
        boolean held = false;
        long from = System.nanoTime();
        try {
            held = slots.tryAcquire(Math.max(0, until - from), TimeUnit.NANOSECONDS);
            long now = System.nanoTime();
            (held ? taken : missed).record(now - from, TimeUnit.NANOSECONDS);
            events.awaitQuiet(Duration.ofNanos(Math.max(0, Math.min(yield.toNanos(), until - now))));
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
