package dev.ringzero.router;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An event as it reaches admission through either door (MQTT or the gateway route). The owner
 * is the gadget's, looked up from its pairing by the door; the payload never names it.
 * {@code sent} is the board's clock when it sent the event, or null where the door has none; it
 * can only tell admission that an event is older than it looks ({@link BoardClocks}).
 */
public record IncomingEvent(String gadgetId, String ownerId, String deviceEventId, String name, JsonNode data,
        String source, BoardTime sent) {

    /**
     * {@code link.event}'s {@code uptime_ms} (the board's milliseconds since it booted), and whether
     * the broker says it may have delivered this message before (MQTT's DUP flag): such a copy may
     * come after newer messages.
     */
    public record BoardTime(long uptimeMs, boolean redelivered) {
    }

    /** An event without the board's clock. */
    public IncomingEvent(String gadgetId, String ownerId, String deviceEventId, String name, JsonNode data,
            String source) {
        this(gadgetId, ownerId, deviceEventId, name, data, source, null);
    }
}
