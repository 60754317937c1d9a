package dev.ringzero.firmware;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** One shared mapper: creating an ObjectMapper per message or per board would dominate a fleet's memory. */
final class FirmwareJson {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() { };

    private FirmwareJson() {
    }

    static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            // only maps, lists, strings, numbers and booleans are written: this is a programming error
            throw new IllegalStateException("cannot serialize " + value.getClass(), e);
        }
    }

    static JsonNode parse(byte[] payload) throws IOException {
        return MAPPER.readTree(payload);
    }

    /** A JSON object as a plain map (empty for anything that is not an object). */
    static Map<String, Object> toMap(JsonNode node) {
        if (node == null || !node.isObject()) {
            return new LinkedHashMap<>();
        }
        return MAPPER.convertValue(node, MAP);
    }

    static JsonNode toNode(Map<String, ?> map) {
        return MAPPER.valueToTree(map);
    }
}
