package dev.ringzero.gadgets;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.gadgets.GadgetDirectory;
import org.springframework.stereotype.Service;

/**
 * Read side of ring 0's gadget knowledge: what each paired gadget is and registered, for the
 * kernel, the dispatcher and definition validation. Always read from the store, so a
 * revocation is visible to the very next decision.
 */
@Service
public class GadgetRegistry implements GadgetDirectory, RegisteredCommands {

    private final GadgetStore store;
    private final ObjectMapper json;
    private final java.util.Map<String, Parsed> parsed = new java.util.concurrent.ConcurrentHashMap<>();

    GadgetRegistry(GadgetStore store, ObjectMapper json) {
        this.store = store;
        this.json = json;
    }

    /** A paired gadget of this owner; another owner's or an unpaired one is simply absent. */
    @Override
    public Optional<GadgetView> find(String ownerId, String gadgetId) {
        return store.find(gadgetId).filter(GadgetStore.Row::paired).filter(row -> row.ownerId().equals(ownerId))
                .map(this::view);
    }

    public List<GadgetView> list(String ownerId) {
        return store.listPaired(ownerId).stream().map(this::view).toList();
    }

    @Override
    public Optional<CommandSpec> command(String gadgetId, String command) {
        return store.find(gadgetId).flatMap(this::registration).map(r -> r.commands().get(command));
    }

    public Optional<Registration> registration(GadgetStore.Row row) {
        if (row.registration() == null) {
            return Optional.empty();
        }
        // Every dispatch reads the registration twice (the kernel's facts, the command's timeout):
        // parse a stored text once and reuse it for as long as the row holds that same text.
        Parsed cached = parsed.get(row.id());
        if (cached != null && cached.text().equals(row.registration())) {
            return Optional.of(cached.registration());
        }
        try {
            Registration registration = Registration.from(json.readTree(row.registration()));
            parsed.put(row.id(), new Parsed(row.registration(), registration));
            return Optional.of(registration);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored registration is always valid JSON", e);
        }
    }

    private record Parsed(String text, Registration registration) {
    }

    public GadgetView view(GadgetStore.Row row) {
        Optional<Registration> registration = registration(row);
        Set<String> events = registration.map(r -> r.events().stream().map(Registration.EventSpec::name)
                .collect(Collectors.toSet())).orElse(Set.of());
        return new GadgetView(row.id(), row.ownerId(), row.name(), row.online(), row.lastSeen(),
                registration.map(Registration::commands).orElse(java.util.Map.of()), events);
    }
}
