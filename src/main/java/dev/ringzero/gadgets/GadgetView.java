package dev.ringzero.gadgets;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * What ring 0 knows about one paired gadget right now: its owner, presence and what it
 * registered. Read-only; the gateway keeps it current.
 */
public record GadgetView(
        String id,
        String ownerId,
        String name,
        boolean online,
        Instant lastSeen,
        Map<String, CommandSpec> commands,
        Set<String> events) {

    public GadgetView {
        commands = commands == null ? Map.of() : Map.copyOf(commands);
        events = events == null ? Set.of() : Set.copyOf(events);
    }

    public boolean hasCommand(String command) {
        return commands.containsKey(command);
    }
}
