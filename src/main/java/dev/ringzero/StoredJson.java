package dev.ringzero;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * JSON the platform itself writes, or reads back after writing or validating it: failing to
 * (de)serialise it is a bug, not bad input, so it surfaces as an {@link IllegalStateException}
 * instead of a checked exception every caller would wrap the same way. Input from outside is
 * parsed where it arrives and refused with a clear error there.
 */
public final class StoredJson {

    private StoredJson() {
    }

    public static String write(ObjectMapper json, Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static JsonNode tree(ObjectMapper json, String text) {
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is always valid", e);
        }
    }

    public static Map<String, Object> map(ObjectMapper json, String text) {
        try {
            return json.readValue(text, new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is always valid", e);
        }
    }
}
