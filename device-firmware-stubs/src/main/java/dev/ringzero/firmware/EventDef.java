package dev.ringzero.firmware;

import java.util.LinkedHashMap;
import java.util.Map;

/** An event a board declares in its registration ({@code "events":[{"name","description"}]}). */
public record EventDef(String name, String description) {

    Map<String, Object> toRegistration() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("description", description);
        return m;
    }
}
