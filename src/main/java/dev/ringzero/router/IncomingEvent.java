package dev.ringzero.router;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An event as it reaches admission through either door (MQTT or the gateway route). The owner
 * is the gadget's, looked up from its pairing by the door; the payload never names it.
 */
public record IncomingEvent(String gadgetId, String ownerId, String deviceEventId, String name, JsonNode data,
        String source) {
}
