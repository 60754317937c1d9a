package dev.ringzero.firmware;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One parameter of a command as registered in {@code commands_v2}: a JSON type and
 * a description the platform can show to people and models.
 *
 * @param type one of {@code string, number, integer, boolean, object, array}
 */
public record ParamSpec(String type, String description) {

    private static final Set<String> TYPES = Set.of("string", "number", "integer", "boolean", "object", "array");

    public ParamSpec {
        if (!TYPES.contains(type)) {
            throw new IllegalArgumentException("unknown parameter type " + type);
        }
    }

    /** Whether a present, non-null JSON value has this type. */
    boolean accepts(JsonNode value) {
        return switch (type) {
            case "string" -> value.isTextual();
            case "number" -> value.isNumber();
            // 3.0 is an integer to a JSON reader even though Jackson parses it as a double
            case "integer" -> value.isIntegralNumber() || (value.isNumber() && value.asDouble() == Math.rint(value.asDouble()));
            case "boolean" -> value.isBoolean();
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            default -> false;
        };
    }

    /** "a string", "an integer": for error messages. */
    String article() {
        return (type.equals("integer") || type.equals("object") || type.equals("array") ? "an " : "a ") + type;
    }

    Map<String, Object> toRegistration() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        m.put("description", description);
        return m;
    }
}
