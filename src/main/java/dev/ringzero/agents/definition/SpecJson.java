package dev.ringzero.agents.definition;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reading and writing the definition's JSON; shared by the spec records. */
final class SpecJson {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private static final BigDecimal INT_MAX = BigDecimal.valueOf(Integer.MAX_VALUE);
    private static final BigDecimal INT_MIN = BigDecimal.valueOf(Integer.MIN_VALUE);

    private SpecJson() {
    }

    static String requiredText(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("'" + field + "' must be a string");
        }
        return value.textValue();
    }

    static String optionalText(JsonNode node, String field, String fallback) {
        JsonNode value = node.get(field);
        return value != null && value.isTextual() ? value.textValue() : fallback;
    }

    static boolean optionalBoolean(JsonNode node, String field, boolean fallback) {
        JsonNode value = node.get(field);
        return value != null && value.isBoolean() ? value.booleanValue() : fallback;
    }

    /**
     * An integer field, saturated to the int range: the schema accepts any integer, and a huge one
     * must still fail the limit check instead of wrapping round to something small.
     */
    static int optionalInt(JsonNode node, String field, int fallback) {
        JsonNode value = node.get(field);
        if (value == null || !value.isNumber()) {
            return fallback;
        }
        BigDecimal number = value.decimalValue();
        return number.max(INT_MIN).min(INT_MAX).intValue();
    }

    static List<String> textList(JsonNode node, String field) {
        JsonNode value = node.get(field);
        List<String> out = new ArrayList<>();
        if (value != null && value.isArray()) {
            value.forEach(item -> out.add(item.asText()));
        }
        return out;
    }

    static ArrayNode textArray(List<String> values) {
        ArrayNode array = MAPPER.createArrayNode();
        values.forEach(array::add);
        return array;
    }

    /** A JSON value as plain Java: String, Boolean, Number, Map, List or null. */
    static Object toPlain(JsonNode value) {
        return freeze(MAPPER.convertValue(value, Object.class));
    }

    /** A deep, unmodifiable copy of a plain value; maps keep their order and may hold nulls. */
    static Object freeze(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, item) -> copy.put(String.valueOf(key), freeze(item)));
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(freeze(item)));
            return Collections.unmodifiableList(copy);
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> freezeMap(Map<String, ?> map) {
        return map == null ? Map.of() : (Map<String, Object>) freeze(map);
    }
}
