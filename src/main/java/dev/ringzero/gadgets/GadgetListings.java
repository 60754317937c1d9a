package dev.ringzero.gadgets;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.Refusal;
import org.springframework.stereotype.Component;

/**
 * A gadget as its owner sees it, one shape for every door (REST, MCP): presence, what it
 * registered, its capabilities and quiet hours. Only the caller's paired gadgets exist here.
 */
@Component
public class GadgetListings {

    /** A gadget as its owner sees it; {@code quietHours} is null when none are set. */
    public record GadgetListing(String id, String name, boolean online, Instant lastSeen, Instant pairedAt,
            Instant registeredAt, Map<String, CommandSpec> commands, List<Registration.EventSpec> events,
            JsonNode capabilities, QuietHours quietHours) {
    }

    /** Background sound is suppressed from {@code from} to {@code to} (HH:MM) in {@code timeZone}. */
    public record QuietHours(String from, String to, String timeZone) {
    }

    private final GadgetRegistry registry;
    private final GadgetStore store;

    GadgetListings(GadgetRegistry registry, GadgetStore store) {
        this.registry = registry;
        this.store = store;
    }

    public List<GadgetListing> list(String ownerId) {
        return store.listPaired(ownerId).stream().map(this::listing).toList();
    }

    /** The owner's paired gadget; unknown, unpaired and other owners' gadgets are all "not found". */
    public GadgetListing get(String ownerId, String id) {
        return store.find(id).filter(GadgetStore.Row::paired).filter(row -> row.ownerId().equals(ownerId))
                .map(this::listing).orElseThrow(() -> Refusal.notFound("gadget"));
    }

    private GadgetListing listing(GadgetStore.Row row) {
        var registration = registry.registration(row);
        QuietHours quiet = row.quietFrom() == null ? null
                : new QuietHours(row.quietFrom(), row.quietTo(), row.quietZone());
        return new GadgetListing(row.id(), row.name(), row.online(), row.lastSeen(), row.pairedAt(),
                row.registeredAt(), registration.map(Registration::commands).orElse(Map.of()),
                registration.map(Registration::events).orElse(List.of()),
                registration.map(Registration::capabilities).orElse(null), quiet);
    }
}
