package dev.ringzero.web.mcp;

import java.util.Iterator;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.Refusal;

/**
 * One tool call's arguments, read strictly: an unknown argument, a missing one or one of the wrong
 * JSON type is a {@link Refusal} ({@code invalid-arguments}) that names it, which the caller renders
 * as a tool error the model can act on. A JSON object may also arrive as a string holding one (models
 * sometimes quote what they pass).
 */
final class ToolArguments {

    static final String INVALID = "invalid-arguments";

    private final JsonNode arguments;
    private final ObjectMapper json;

    private ToolArguments(JsonNode arguments, ObjectMapper json) {
        this.arguments = arguments;
        this.json = json;
    }

    static ToolArguments of(Map<String, Object> arguments, Set<String> allowed, ObjectMapper json) {
        JsonNode tree = arguments == null ? json.createObjectNode() : json.valueToTree(arguments);
        for (Iterator<String> names = tree.fieldNames(); names.hasNext();) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw Refusal.invalid(INVALID, "unknown argument '" + name + "'; this tool takes "
                        + (allowed.isEmpty() ? "no arguments" : String.join(", ", allowed)));
            }
        }
        return new ToolArguments(tree, json);
    }

    /** A required, non-blank string. */
    String text(String name) {
        JsonNode value = arguments.get(name);
        if (value == null || value.isNull()) {
            throw Refusal.invalid(INVALID, "argument '" + name + "' is required");
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            throw Refusal.invalid(INVALID, "argument '" + name + "' must be a non-empty string");
        }
        return value.asText();
    }

    boolean has(String name) {
        JsonNode value = arguments.get(name);
        return value != null && !value.isNull();
    }

    /** An optional string, or null. */
    String optionalText(String name) {
        return has(name) ? text(name) : null;
    }

    /** A required JSON object (or a string that holds one). */
    JsonNode object(String name) {
        JsonNode value = arguments.get(name);
        if (value == null || value.isNull()) {
            throw Refusal.invalid(INVALID, "argument '" + name + "' is required: a JSON object");
        }
        if (value.isTextual()) {
            try {
                value = json.readTree(value.asText());
            } catch (JsonProcessingException e) {
                throw Refusal.invalid(INVALID, "argument '" + name + "' must be a JSON object; the string given "
                        + "is not JSON (" + e.getOriginalMessage() + ")");
            }
        }
        if (value == null || !value.isObject()) {
            throw Refusal.invalid(INVALID, "argument '" + name + "' must be a JSON object");
        }
        return value;
    }

    /** An optional JSON object, or null. */
    JsonNode optionalObject(String name) {
        return has(name) ? object(name) : null;
    }

    /** An optional whole number within {@code min..max}, or {@code fallback}. */
    int number(String name, int fallback, int min, int max) {
        if (!has(name)) {
            return fallback;
        }
        JsonNode value = arguments.get(name);
        if (!value.canConvertToExactIntegral() || !value.canConvertToInt() || value.asInt() < min
                || value.asInt() > max) {
            throw Refusal.invalid(INVALID, "argument '" + name + "' must be a whole number from " + min + " to "
                    + max);
        }
        return value.asInt();
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> optionalMap(String name) {
        return has(name) ? json.convertValue(object(name), Map.class) : Map.of();
    }
}
