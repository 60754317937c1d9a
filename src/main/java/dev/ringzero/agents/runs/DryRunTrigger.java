package dev.ringzero.agents.runs;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.Refusal;

/**
 * The trigger a client gives a dry run, read into the shape a real occurrence has
 * ({@code {kind, gadget: {id}, event: {name, data}}}). The definition's own shape is understood
 * too ({@code gadget} and {@code event} as names, {@code data} beside them), since that is what a
 * person writing a definition has at hand; anything else is refused, naming the field.
 */
final class DryRunTrigger {

    private static final TypeReference<LinkedHashMap<String, Object>> OBJECT = new TypeReference<>() { };

    private DryRunTrigger() {
    }

    static Map<String, Object> read(ObjectMapper json, JsonNode given) {
        if (!given.isObject()) {
            throw invalid("trigger must be an object");
        }
        if (!given.path("kind").isTextual()) {
            throw invalid("trigger.kind must be a string, e.g. \"gadget.event\"");
        }
        Map<String, Object> trigger = json.convertValue(given, OBJECT);
        JsonNode gadget = given.path("gadget");
        if (gadget.isTextual()) {
            trigger.put("gadget", Map.of("id", gadget.asText()));
        } else if (!gadget.isMissingNode() && !(gadget.isObject() && textOrAbsent(gadget.path("id")))) {
            throw invalid("trigger.gadget must be a gadget id or {\"id\": \"…\"}");
        }
        JsonNode event = given.path("event");
        JsonNode data = given.path("data");
        if (!data.isMissingNode() && !data.isObject()) {
            throw invalid("trigger.data must be an object");
        }
        if (event.isTextual()) {
            Map<String, Object> occurrence = new LinkedHashMap<>();
            occurrence.put("name", event.asText());
            occurrence.put("data", data.isObject() ? json.convertValue(data, OBJECT) : Map.of());
            trigger.put("event", occurrence);
            trigger.remove("data");
        } else if (!event.isMissingNode() && !(event.isObject() && textOrAbsent(event.path("name"))
                && (event.path("data").isMissingNode() || event.path("data").isObject()))) {
            throw invalid("trigger.event must be an event name or {\"name\": \"…\", \"data\": {…}}");
        }
        return trigger;
    }

    private static boolean textOrAbsent(JsonNode node) {
        return node.isMissingNode() || node.isTextual();
    }

    private static Refusal invalid(String message) {
        return Refusal.invalid("invalid-trigger", message);
    }
}
