package dev.ringzero.router;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ringzero.accounts.Tokens;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Admits an event durably and exactly once before anything runs: the device's event id is
 * unique per gadget, and the same event (name and data) from the same gadget within the dedup
 * window counts as a duplicate too. A committed admission survives a crash; the router picks
 * up what it had not routed yet.
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

    private final JdbcClient jdbc;
    private final ObjectMapper canonical;
    private final MeterRegistry meters;
    private final Clock clock;
    private final TriggerRouter router;

    EventAdmission(JdbcClient jdbc, ObjectMapper json, MeterRegistry meters,
            Clock clock, TriggerRouter router) {
        this.jdbc = jdbc;
        this.canonical = json.copy().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
        this.meters = meters;
        this.clock = clock;
        this.router = router;
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
        String data = canonicalData(event);
        String contentKey = Tokens.sha256(event.name() + "\n" + data);
        Instant now = clock.instant();
        Result result;
        try {
            // one statement, one round trip: insert unless the same content came from this gadget
            // within the window (the unique device event id catches the exact repeat)
            String id = UUID.randomUUID().toString();
            int inserted = jdbc.sql("insert into rz_event(id, gadget_id, owner_id, device_event_id, name, data, "
                            + "content_key, source, received_at, state) select ?, ?, ?, ?, ?, ?, ?, ?, ?, 'admitted' "
                            + "where not exists (select 1 from rz_event where gadget_id = ? and content_key = ? "
                            + "and received_at > ?)")
                    .params(id, event.gadgetId(), event.ownerId(), event.deviceEventId(), event.name(), data,
                            contentKey, event.source(), Timestamp.from(now), event.gadgetId(), contentKey,
                            Timestamp.from(now.minus(DEDUP_WINDOW)))
                    .update();
            result = inserted == 0 ? new Duplicate("same_event_within_window")
                    : new Admitted(id, new TriggerRouter.StoredEvent(id, event.gadgetId(), event.ownerId(),
                            event.deviceEventId(), event.name(), data, now));
        } catch (DuplicateKeyException e) {
            result = new Duplicate("same_event_id");
        }
        meters.counter("ringzero.events", "result", result instanceof Admitted ? "admitted" : "duplicate")
                .increment();
        return result;
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
