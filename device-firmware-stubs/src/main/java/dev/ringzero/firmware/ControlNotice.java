package dev.ringzero.firmware;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A message received on the {@code control} topic, e.g.
 * {@code {"type":"event","event":"link.unpaired"}}. Unreadable payloads are kept too
 * (with null type and event), so a test can see that something arrived.
 */
public record ControlNotice(String type, String event, Map<String, Object> message, Instant receivedAt) {

    public ControlNotice {
        message = Collections.unmodifiableMap(new LinkedHashMap<>(message));
    }

    public boolean isUnpaired() {
        return "event".equals(type) && "link.unpaired".equals(event);
    }
}
