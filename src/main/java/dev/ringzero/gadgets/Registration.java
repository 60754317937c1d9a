package dev.ringzero.gadgets;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a gadget said it can do in {@code link.register}: commands ({@code commands_v2}),
 * capabilities and events. Stored as the device sent it (validated), parsed on read.
 */
public record Registration(
        String nodeId,
        String displayName,
        String platform,
        String version,
        JsonNode capabilities,
        Map<String, CommandSpec> commands,
        List<EventSpec> events) {

    public record EventSpec(String name, String description) {
    }

    /** Parses {@code params} of a validated registration. */
    public static Registration from(JsonNode params) {
        Map<String, CommandSpec> commands = new LinkedHashMap<>();
        params.path("commands_v2").fields().forEachRemaining(entry -> {
            JsonNode spec = entry.getValue();
            commands.put(entry.getKey(), new CommandSpec(entry.getKey(), spec.path("description").asText(""),
                    paramSpecs(spec.path("required")), paramSpecs(spec.path("optional")),
                    spec.path("timeout_ms").asLong(CommandSpec.DEFAULT_TIMEOUT_MS)));
        });
        List<EventSpec> events = new java.util.ArrayList<>();
        params.path("events").forEach(event -> events.add(
                new EventSpec(event.path("name").asText(), event.path("description").asText(""))));
        return new Registration(params.path("node_id").asText(null), params.path("display_name").asText(null),
                params.path("platform").asText(null), params.path("version").asText(null),
                params.path("capabilities"), commands, List.copyOf(events));
    }

    private static Map<String, CommandSpec.ParamSpec> paramSpecs(JsonNode node) {
        Map<String, CommandSpec.ParamSpec> specs = new LinkedHashMap<>();
        node.fields().forEachRemaining(entry -> specs.put(entry.getKey(), new CommandSpec.ParamSpec(
                entry.getValue().path("type").asText("string"), entry.getValue().path("description").asText(""))));
        return specs;
    }
}
