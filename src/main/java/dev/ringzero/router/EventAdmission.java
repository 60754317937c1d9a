package dev.ringzero.router;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ringzero.accounts.Tokens;
import dev.ringzero.Batches;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Admits an event durably and exactly once before anything runs: the device's event id is
 * unique per gadget, and the same event (name and data) from the same gadget within the dedup
 * window counts as a duplicate too. A committed admission survives a crash; the router picks
 * up what it had not routed yet.
 *
 * <p>Events from the link are admitted <em>and routed</em> in one transaction on the admission
 * lane ({@link #admitSoon}), and the broker gets its acknowledgement only after that commit: an
 * event is never acknowledged before it is stored, and never stored without its runs, so it
 * needs no second transaction to be claimed for routing. Events from REST are admitted first and
 * routed after ({@link #admitAndRoute}).
 */
@Service
public class EventAdmission {

    /** What admission did with an event. */
    public sealed interface Result permits Admitted, Duplicate {
    }

    /** Admitted: the event as stored, so routing need not read it back. */
    public record Admitted(String eventId, TriggerRouter.StoredEvent event) implements Result {
    }

    public record Duplicate(String reason) implements Result {
    }

    static final Duration DEDUP_WINDOW = Duration.ofSeconds(3);
    /** How long an event waits before it is tried again when the database refused it. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(EventAdmission.class);

    /**
     * An event off the link, waiting for the admission lane. {@code acknowledge} tells the broker
     * it is stored; {@code admitted} is what the link does once it is (not for a duplicate).
     */
    private record Arrival(IncomingEvent event, Instant arrivedAt, Runnable acknowledge, Runnable admitted,
            Executor workers) {
    }

    private final JdbcClient jdbc;
    private final ObjectMapper canonical;
    private final MeterRegistry meters;
    private final Clock clock;
    private final TriggerRouter router;
    private final Batches batch;
    private final TaskScheduler scheduler;
    private final int batchSize;
    private final Lane[] lanes;
    private final BoardClocks boardClocks;
    private final RoutingBacklog backlog;

    /**
     * The events of some gadgets, admitted in the order they arrived, by one worker at a time: a
     * gadget's events never race each other (the 3 s duplicate check compares with what is
     * committed, and push-to-talk's start must reach the speaker floor before its end).
     */
    private static final class Lane {
        final Queue<Arrival> arrivals = new ConcurrentLinkedQueue<>();
        final java.util.concurrent.atomic.AtomicBoolean draining = new java.util.concurrent.atomic.AtomicBoolean();
    }

    EventAdmission(JdbcClient jdbc, ObjectMapper json, MeterRegistry meters, Clock clock, TriggerRouter router,
            Batches batch, TaskScheduler scheduler, RoutingBacklog backlog,
            @Value("${ringzero.router.batch:8}") int batchSize, @Value("${ringzero.router.lanes:16}") int lanes) {
        this.backlog = backlog;
        this.jdbc = jdbc;
        this.canonical = json.copy().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
        this.meters = meters;
        this.clock = clock;
        this.router = router;
        this.batch = batch;
        this.scheduler = scheduler;
        this.batchSize = Math.max(1, batchSize);
        this.lanes = new Lane[Math.max(1, lanes)];
        java.util.Arrays.setAll(this.lanes, i -> new Lane());
        this.boardClocks = new BoardClocks();
    }

    /**
     * Admits and routes an event from the link on a worker of {@code workers}, then acknowledges
     * it. Each gadget has its lane (one of {@code ringzero.router.lanes}; more lanes than workers, so
     * a free worker seldom waits for a busy lane), drained by one worker at a time, which takes
     * whatever has arrived by its turn (at most {@code ringzero.router.batch})
     * into one transaction: alone, an event is a batch of one; under load, a batch shares one
     * commit and one engine flush among its events. An event older than the router's shed bound
     * when its turn comes (since it arrived, or since its board sent it, going by the board's later
     * events: {@link BoardClocks}) is stored as shed and starts nothing. Until it is acknowledged an
     * event is the broker's to deliver again: if this node stops first, nothing is lost.
     */
    public void admitSoon(IncomingEvent event, Runnable acknowledge, Runnable admitted, Executor workers) {
        admitSoon(event, clock.instant(), acknowledge, admitted, workers);
    }

    /** As {@link #admitSoon(IncomingEvent, Runnable, Runnable, Executor)}, for an event that arrived at {@code arrivedAt}. */
    void admitSoon(IncomingEvent event, Instant arrivedAt, Runnable acknowledge, Runnable admitted, Executor workers) {
        if (event.sent() != null && !event.sent().redelivered()) {
            // before it queues: the board's events already waiting are compared with this one
            boardClocks.arrived(event.gadgetId(), event.sent().uptimeMs(), arrivedAt);
        }
        queue(new Arrival(event, arrivedAt, acknowledge, admitted, workers));
    }

    private void queue(Arrival arrival) {
        Lane lane = lanes[Math.floorMod(arrival.event().gadgetId().hashCode(), lanes.length)];
        backlog.queued();
        lane.arrivals.add(arrival);
        if (lane.draining.compareAndSet(false, true)) {
            submit(lane, arrival.workers());
        }
    }

    private void submit(Lane lane, Executor workers) {
        try {
            workers.execute(() -> drain(lane, workers));
        } catch (RuntimeException e) {
            // shutting down: the lane's events stay unacknowledged, and the broker keeps them
            lane.draining.set(false);
            log.info("admission lane not drained (shutting down?): {}", e.toString());
        }
    }

    /**
     * Admits one batch of the lane's events, then hands the worker back: a lane with more to do
     * queues behind the other lanes' turns instead of keeping the worker, so one busy gadget
     * never makes the others wait. Only one drain per lane at a time (its {@code draining} flag).
     */
    private void drain(Lane lane, Executor workers) {
        List<Arrival> taken = List.of();
        try {
            taken = Batches.take(lane.arrivals, batchSize);
            // one order for every batch: agents are locked in the order of their gadgets' events,
            // so two batches rarely wait for each other's agents in a circle (only agents listening
            // to several gadgets can); when they do, the database ends one, and its events go one
            // by one
            taken.sort(java.util.Comparator.comparing((Arrival arrival) -> arrival.event().gadgetId())
                    .thenComparing(Arrival::arrivedAt));
            batch.run(taken, this::admitAndRouteNow, this::admitAlone);
        } catch (RuntimeException | Error e) {
            // not an event's failure (those are handled in the batch): its events stay
            // unacknowledged, for the broker to deliver again
            log.error("admission lane failed: {}", e.toString());
        } finally {
            backlog.done(taken.size());
            lane.draining.set(false);
            // whatever arrived meanwhile found the lane draining and left it to this turn
            if (!lane.arrivals.isEmpty() && lane.draining.compareAndSet(false, true)) {
                submit(lane, workers);
            }
        }
    }

    /**
     * Admits and routes {@code event} in the caller's transaction, as the lane does an event off
     * the link, with nothing to acknowledge: the node's rehearsal of its hot path
     * ({@code dev.ringzero.rehearsal}), whose transaction never commits, so neither does the event.
     */
    public void admitAndRouteHere(IncomingEvent event) {
        admitAndRouteNow(new Arrival(event, clock.instant(), () -> { }, () -> { }, Runnable::run));
    }

    /** In the lane's transaction: stores the event with its final state and routes (or sheds) it. */
    private void admitAndRouteNow(Arrival arrival) {
        Duration age = age(arrival);
        boolean overdue = router.overdue(age);
        Result result = store(arrival.event(), arrival.arrivedAt(), overdue ? "shed" : "routed");
        if (result instanceof Admitted admitted) {
            router.routeAdmitted(admitted.event(), age);
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                settled(arrival, result);
            }
        });
    }

    /** At least how old the event is now: since it arrived here, or since its board sent it if that says more. */
    private Duration age(Arrival arrival) {
        Instant now = clock.instant();
        IncomingEvent event = arrival.event();
        return event.sent() == null ? Duration.between(arrival.arrivedAt(), now)
                : boardClocks.age(event.gadgetId(), event.sent().uptimeMs(), arrival.arrivedAt(), now);
    }

    /**
     * The event could not be routed, even alone: it is admitted by itself, and the router's
     * recovery sweep routes it later. If the database refuses even that, the event stays
     * unacknowledged and is tried again shortly.
     */
    private void admitAlone(Arrival arrival, RuntimeException cause) {
        log.warn("admitting and routing event {} from {} failed; it is admitted alone, to be routed later: {}",
                arrival.event().deviceEventId(), arrival.event().gadgetId(), cause.toString());
        Result result;
        try {
            result = store(arrival.event(), arrival.arrivedAt(), "admitted");
        } catch (TransientDataAccessException | RecoverableDataAccessException | DataAccessResourceFailureException e) {
            // the database is away or busy: the event stays the broker's until it is stored
            log.warn("admitting event {} from {} failed; tried again in {}: {}", arrival.event().deviceEventId(),
                    arrival.event().gadgetId(), RETRY_AFTER, e.toString());
            scheduler.schedule(() -> queue(arrival), clock.instant().plus(RETRY_AFTER));
            return;
        } catch (RuntimeException e) {
            // not the database being away: this event cannot be stored, and never will be
            log.error("event {} from {} cannot be admitted and is dropped: {}", arrival.event().deviceEventId(),
                    arrival.event().gadgetId(), e.toString());
            arrival.acknowledge().run();
            return;
        }
        settled(arrival, result);
    }

    /** After the event is stored: never throws, so one event's follow-up cannot undo another's. */
    private void settled(Arrival arrival, Result result) {
        try {
            count(result);
            if (result instanceof Admitted) {
                arrival.admitted().run();
            }
        } catch (RuntimeException e) {
            log.warn("after admitting event {} from {}: {}", arrival.event().deviceEventId(),
                    arrival.event().gadgetId(), e.toString());
        } finally {
            try {
                arrival.acknowledge().run();
            } catch (RuntimeException e) {
                // the connection dropped: the broker delivers the event again, and it is a duplicate
                log.info("acknowledging event {} from {} failed: {}", arrival.event().deviceEventId(),
                        arrival.event().gadgetId(), e.toString());
            }
        }
    }

    /** Admits (one transaction), then routes; a routing failure leaves the event for recovery. */
    public Result admitAndRoute(IncomingEvent event) {
        Result result = admit(event);
        if (result instanceof Admitted admitted) {
            router.routeQuietly(admitted.event());
        }
        return result;
    }

    /** Admits durably without routing; the router (or its recovery sweep) routes what is admitted. */
    public Result admit(IncomingEvent event) {
        Result result = store(event, clock.instant(), "admitted");
        count(result);
        return result;
    }

    /**
     * Stores the event with {@code state} unless it is a duplicate: one statement, one round trip,
     * that inserts nothing if this gadget sent the same event id before or the same content within
     * the window (the unique device event id still catches two copies stored at the same time).
     */
    private Result store(IncomingEvent event, Instant at, String state) {
        String data = canonicalData(event);
        String contentKey = Tokens.sha256(event.name() + "\n" + data);
        String id = UUID.randomUUID().toString();
        Timestamp routedAt = "admitted".equals(state) ? null : Timestamp.from(clock.instant());
        int inserted;
        try {
            inserted = jdbc.sql("insert into rz_event(id, gadget_id, owner_id, device_event_id, name, data, "
                            + "content_key, source, received_at, state, routed_at) "
                            + "select ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? "
                            + "where not exists (select 1 from rz_event where gadget_id = ? and device_event_id = ?) "
                            + "and not exists (select 1 from rz_event where gadget_id = ? and content_key = ? "
                            + "and received_at > ?)")
                    .params(id, event.gadgetId(), event.ownerId(), event.deviceEventId(), event.name(), data,
                            contentKey, event.source(), Timestamp.from(at), state, routedAt, event.gadgetId(),
                            event.deviceEventId(), event.gadgetId(), contentKey, Timestamp.from(at.minus(DEDUP_WINDOW)))
                    .update();
        } catch (DuplicateKeyException e) {
            return new Duplicate("same_event_id");
        }
        if (inserted == 1) {
            return new Admitted(id, new TriggerRouter.StoredEvent(id, event.gadgetId(), event.ownerId(),
                    event.deviceEventId(), event.name(), data, at));
        }
        boolean sameId = jdbc.sql("select count(*) from rz_event where gadget_id = ? and device_event_id = ?")
                .params(event.gadgetId(), event.deviceEventId()).query(Integer.class).single() > 0;
        return new Duplicate(sameId ? "same_event_id" : "same_event_within_window");
    }

    private void count(Result result) {
        meters.counter("ringzero.events", "result", result instanceof Admitted ? "admitted" : "duplicate")
                .increment();
    }

    private String canonicalData(IncomingEvent event) {
        try {
            Object tree = canonical.treeToValue(event.data() == null ? canonical.createObjectNode() : event.data(),
                    Object.class);
            return canonical.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("event data is not JSON", e);
        }
    }
}
