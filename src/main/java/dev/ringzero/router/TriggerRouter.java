package dev.ringzero.router;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Routes an event: every matching agent gets a run, and an event that matched nothing goes to the
 * owner's inbox (the main-chat fallback). A link event is routed in the transaction that admits
 * it ({@link EventAdmission#admitSoon}); a REST event, or a link event that failed to route with
 * its batch and alone, is admitted first and claimed here ({@code admitted → routed}) in one
 * transaction with its routing. Events still {@code admitted} after a crash are routed by the
 * recovery sweep.
 */
@Service
public class TriggerRouter {

    private static final Logger log = LoggerFactory.getLogger(TriggerRouter.class);
    /** Younger unrouted events are probably being routed right now by the thread that admitted them (REST). */
    private static final Duration RECOVERY_GRACE = Duration.ofSeconds(2);
    /** Shedding is logged once per interval (with a count), not once per event. */
    private static final Duration SHED_REPORT_EVERY = Duration.ofSeconds(10);

    /** An admitted event as routing reads it. */
    public record StoredEvent(String id, String gadgetId, String ownerId, String deviceEventId, String name,
            String data, java.time.Instant receivedAt) {
    }

    /** What a matcher decided for one event; {@code matched} false sends it to the fallback. */
    public interface Matcher {
        boolean route(StoredEvent event);

        /**
         * The event was too old to be acted on when its turn came ({@code age}: at least that old;
         * the platform was overloaded, or the broker delivered it late): record, for whoever would
         * have acted on it, that it was shed; start nothing. True if anyone listened.
         */
        boolean shed(StoredEvent event, Duration age);
    }

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final InboxService inbox;
    private final Clock clock;
    private final List<Matcher> matchers;
    private final FallbackWebhook fallbackWebhook;
    private final ObjectMapper json;
    private final MeterRegistry meters;
    /** A gadget event older than this when its turn to be routed comes is shed, not acted on late. */
    private final Duration shedAfter;
    private final java.util.concurrent.atomic.AtomicLong lastShedReport =
            new java.util.concurrent.atomic.AtomicLong(System.nanoTime() - SHED_REPORT_EVERY.toNanos());
    private final java.util.concurrent.atomic.AtomicLong shedUnreported = new java.util.concurrent.atomic.AtomicLong();
    TriggerRouter(JdbcClient jdbc, TransactionTemplate transactions, InboxService inbox, Clock clock,
            List<Matcher> matchers, FallbackWebhook fallbackWebhook, ObjectMapper json, MeterRegistry meters,
            @Value("${ringzero.router.shed-after:PT5S}") Duration shedAfter) {
        this.meters = meters;
        this.shedAfter = shedAfter;
        this.json = json;
        this.fallbackWebhook = fallbackWebhook;
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.inbox = inbox;
        this.clock = clock;
        this.matchers = matchers;
    }

    /** Whether an event this old (since it arrived, or since its board sent it) is too old to be acted on now. */
    boolean overdue(Duration age) {
        return age.compareTo(shedAfter) > 0;
    }

    /**
     * Routes an event that the caller's transaction holds with its final state ({@code routed}, or
     * {@code shed} if it was {@link #overdue} at the {@code age} given): stored so by admission, or
     * claimed so here.
     */
    void routeAdmitted(StoredEvent event, Duration age) {
        if (overdue(age)) {
            shed(event, age);
        } else {
            routeClaimed(event);
        }
    }

    /** Routes now; a failure is logged and left to the recovery sweep, never lost. */
    public void routeQuietly(String eventId) {
        quietly(eventId, () -> route(eventId));
    }

    /** As {@link #routeQuietly(String)}, for an event just admitted (what was stored, in hand). */
    public void routeQuietly(StoredEvent event) {
        quietly(event.id(), () -> routeOrShed(event));
    }

    /** Routes the event, or sheds it if it waited too long; in the caller's transaction, if any. */
    private void routeOrShed(StoredEvent event) {
        transactions.executeWithoutResult(status -> {
            Duration age = Duration.between(event.receivedAt(), clock.instant());
            boolean overdue = overdue(age);
            if (claimed(event.id(), overdue ? "shed" : "routed")) {
                routeAdmitted(event, age);
            }
        });
    }

    /**
     * Load shedding, visible: a gadget event older than {@code shedAfter} when its turn to be
     * routed comes (since it arrived, or since its board sent it: {@link BoardClocks}) is not
     * acted on late (a bark a minute after the shake helps nobody, and a backlog of
     * late runs only makes the next events later); each agent that listened records
     * {@code shed_overload} in its decisions, the event stays as {@code shed}, and
     * {@code ringzero_events_shed_total} counts it.
     */
    private void shed(StoredEvent event, Duration age) {
        boolean listened = false;
        for (Matcher matcher : matchers) {
            listened |= matcher.shed(event, age);
        }
        meters.counter("ringzero.events.shed").increment();
        // one line per interval, not one per event: an overloaded node sheds hundreds a second
        long now = System.nanoTime();
        long last = lastShedReport.get();
        if (now - last >= SHED_REPORT_EVERY.toNanos() && lastShedReport.compareAndSet(last, now)) {
            log.warn("event {} from {} was at least {} ms old when its turn to be routed came and was shed "
                    + "(overloaded, or delivered late){}; {} more shed since the last report "
                    + "(ringzero_events_shed_total counts them all)", event.id(), event.gadgetId(),
                    age.toMillis(), listened ? "" : "; nothing listened for it", shedUnreported.getAndSet(0));
        } else {
            shedUnreported.incrementAndGet();
        }
    }

    private static void quietly(String eventId, Runnable routing) {
        try {
            routing.run();
        } catch (RuntimeException e) {
            log.warn("routing event {} failed; it stays admitted and will be retried: {}", eventId, e.toString());
        }
    }

    public void route(String eventId) {
        transactions.executeWithoutResult(status -> claim(eventId).ifPresent(this::routeClaimed));
    }

    private void routeClaimed(StoredEvent event) {
        boolean matched = false;
        for (Matcher matcher : matchers) {
            matched |= matcher.route(event);
        }
        if (!matched) {
            fallback(event);
        }
    }

    /** Routes events that were admitted but never routed (a crash between the two). */
    @Scheduled(fixedDelayString = "${ringzero.router.recovery-interval:PT5S}", initialDelayString = "PT5S")
    public void recover() {
        List<String> stranded = jdbc.sql("select id from rz_event where state = 'admitted' and received_at < ? "
                        + "order by received_at limit 500")
                .param(Timestamp.from(clock.instant().minus(RECOVERY_GRACE))).query(String.class).list();
        stranded.forEach(this::routeQuietly);
    }

    /** Marks the event routed; only one router (node or thread) wins it. */
    private Optional<StoredEvent> claim(String eventId) {
        if (!claimed(eventId)) {
            return Optional.empty();
        }
        return jdbc.sql("select id, gadget_id, owner_id, device_event_id, name, data, received_at from rz_event "
                        + "where id = ?")
                .param(eventId)
                .query((rs, n) -> new StoredEvent(rs.getString(1), rs.getString(2), rs.getString(3),
                        rs.getString(4), rs.getString(5), rs.getString(6), rs.getTimestamp(7).toInstant()))
                .optional();
    }

    private boolean claimed(String eventId) {
        return claimed(eventId, "routed");
    }

    private boolean claimed(String eventId, String state) {
        return jdbc.sql("update rz_event set state = ?, routed_at = ? where id = ? and state = 'admitted'")
                .params(state, Timestamp.from(clock.instant()), eventId).update() == 1;
    }

    private void fallback(StoredEvent event) {
        String text = "[Gadget event] " + event.gadgetId() + ": " + event.name() + " " + event.data();
        // built, not concatenated: an event name is the device's text and may hold any character
        ObjectNode fields = json.createObjectNode().put("gadget", event.gadgetId()).put("event", event.name())
                .put("eventId", event.id());
        try {
            fields.set("data", json.readTree(event.data()));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("admitted event data is always JSON", e);
        }
        String data = fields.toString();
        inbox.post(event.ownerId(), "gadget_event", text, data);
        fallbackWebhook.deliverAfterCommit(event.ownerId(), text, data);
    }
}
