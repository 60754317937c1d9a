package dev.ringzero.firmware;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A {@code link.event} the board published (or queued while the link was down). */
public record SentEvent(String id, String event, Map<String, Object> data, Instant sentAt) {

    public SentEvent {
        data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
    }
}
