package dev.ringzero.router;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An event as it reaches admission through either door (MQTT or the gateway route). The owner
 * is the gadget's, looked up from its pairing by the door; the payload never names it.
 * {@code uptimeMs} is the board's clock when it sent the event ({@code link.event}'s
 * {@code uptime_ms}), or null where the door has none; it can only tell admission that an event
 * is older than it looks (see {@link BoardClocks}).
 */
public record IncomingEvent(String gadgetId, String ownerId, String deviceEventId, String name, JsonNode data,
        String source, Long uptimeMs) {

    /** An event without the board's clock. */
    public IncomingEvent(String gadgetId, String ownerId, String deviceEventId, String name, JsonNode data,
            String source) {
        this(gadgetId, ownerId, deviceEventId, name, data, source, null);
    }
}
