package dev.ringzero.firmware;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** A message collected by {@link SimulatedBoard#subscribeRaw}. */
public record RawMessage(String topic, byte[] payload, boolean retained, Instant receivedAt) {

    public String text() {
        return new String(payload, StandardCharsets.UTF_8);
    }
}
