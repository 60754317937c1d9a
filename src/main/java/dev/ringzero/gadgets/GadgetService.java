package dev.ringzero.gadgets;

import java.time.Clock;
import java.util.Map;
import java.util.regex.Pattern;

import dev.ringzero.accounts.Tokens;
import dev.ringzero.Refusal;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Pairing: binds a gadget id to an account and issues its broker credential (shown once);
 * unpairing revokes it, tells the device, closes its connections and fences queued work.
 */
@Service
public class GadgetService {

    /** Quiet hours are stored as they are read: two-digit hours and minutes, nothing more. */
    private static final Pattern HOURS_MINUTES = Pattern.compile("([01][0-9]|2[0-3]):[0-5][0-9]");
    private static final Pattern GADGET_ID = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$");

    /** Published after a gadget is unpaired, so queued work for it can be fenced. */
    public record GadgetUnpaired(String gadgetId, String ownerId) {
    }

    public record Pairing(String id, MqttCredential mqtt) {
    }

    public record MqttCredential(String url, String username, String password) {
    }

    private final GadgetStore store;
    private final BrokerAccess broker;
    private final PairingLink link;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final org.springframework.scheduling.TaskScheduler scheduler;
    private final CredentialSweep credentials;
    private final java.time.Duration unpairNoticeGrace;

    GadgetService(GadgetStore store, BrokerAccess broker, PairingLink link,
            ApplicationEventPublisher events, Clock clock, org.springframework.scheduling.TaskScheduler scheduler,
            CredentialSweep credentials,
            @org.springframework.beans.factory.annotation.Value("${ringzero.gadgets.unpair-notice-grace:PT0.3S}")
            java.time.Duration unpairNoticeGrace) {
        this.scheduler = scheduler;
        this.credentials = credentials;
        this.unpairNoticeGrace = unpairNoticeGrace;
        this.store = store;
        this.broker = broker;
        this.link = link;
        this.events = events;
        this.clock = clock;
    }

    @Transactional
    public Pairing pair(String ownerId, String id, String name) {
        if (id == null || !GADGET_ID.matcher(id).matches() || link.reserved(id)) {
            throw Refusal.invalid("invalid-gadget-id",
                    "id must be 1-64 characters of letters, digits, '_' or '-', starting with a letter or digit");
        }
        String password = Tokens.newSecret("");
        if (!store.pair(id, ownerId, name == null || name.isBlank() ? id : name, Tokens.sha256(password),
                clock.instant())) {
            throw Refusal.conflict("gadget-id-taken", "gadget id '" + id + "' is already paired");
        }
        broker.provision(id, password);
        return new Pairing(id, new MqttCredential(link.brokerUrl(), id, password));
    }

    public void unpair(String ownerId, String id) {
        GadgetStore.Row row = store.find(id).filter(GadgetStore.Row::paired)
                .filter(gadget -> gadget.ownerId().equals(ownerId))
                .orElseThrow(() -> Refusal.notFound("gadget"));
        if (!store.unpair(row.id())) {
            throw Refusal.notFound("gadget");
        }
        events.publishEvent(new GadgetUnpaired(id, ownerId));
        // The kernel refuses the gadget from this moment (the row says unpaired). Tell the device
        // while it is still connected; revoking a moment later lets the notice leave the broker
        // before the connection is closed (a broker drops what it had not yet written).
        link.tellUnpaired(id);
        // (if this node stops in the grace, or the broker does not answer, the sweep retires it)
        scheduler.schedule(() -> credentials.retire(id), clock.instant().plus(unpairNoticeGrace));
    }

    public Map<String, Object> quietHours(String ownerId, String id, String from, String to, String zone) {
        store.find(id).filter(GadgetStore.Row::paired).filter(gadget -> gadget.ownerId().equals(ownerId))
                .orElseThrow(() -> Refusal.notFound("gadget"));
        String timeZone = zone == null ? "UTC" : zone;
        boolean clearing = from == null && to == null;
        if (!clearing && !(HOURS_MINUTES.matcher(String.valueOf(from)).matches()
                && HOURS_MINUTES.matcher(String.valueOf(to)).matches() && knownZone(timeZone))) {
            throw Refusal.invalid("invalid-quiet-hours",
                    "quiet hours need both from and to as HH:MM (00:00-23:59) and a known time zone, or both null");
        }
        store.quietHours(id, from, to, clearing ? null : timeZone);
        return Map.of("from", String.valueOf(from), "to", String.valueOf(to));
    }

    private static boolean knownZone(String zone) {
        try {
            java.time.ZoneId.of(zone);
            return true;
        } catch (java.time.DateTimeException e) {
            return false;
        }
    }
}
