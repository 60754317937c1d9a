package dev.ringzero.firmware;

import java.util.Objects;

/**
 * Everything a board needs to reach the platform: what {@code POST /api/v1/gadgets}
 * hands out once (url, username = gadget id, password).
 *
 * @param brokerUrl    {@code tcp://host:port} (or {@code ssl://})
 * @param gadgetId     the MQTT username; also the topic segment
 * @param password     the gadget's credential
 * @param clientSuffix null for the device's own connection; otherwise the client id
 *                     becomes {@code gadgetId.suffix} (a maker's second connection; brokers
 *                     refuse the older {@code gadgetId-suffix}, which could be another
 *                     gadget's id: {@code .} cannot appear in one)
 */
public record LinkConfig(String brokerUrl, String gadgetId, String password, String clientSuffix) {

    public static final String TOPIC_ROOT = "ringzero/v1/gadgets/";

    public LinkConfig {
        Objects.requireNonNull(brokerUrl, "brokerUrl");
        Objects.requireNonNull(gadgetId, "gadgetId");
        Objects.requireNonNull(password, "password");
        if (gadgetId.isBlank() || gadgetId.contains("/") || gadgetId.contains("+") || gadgetId.contains("#")) {
            // a wildcard or separator in the id would let the board address topics that are not its own
            throw new IllegalArgumentException("gadget id must be one plain topic segment: " + gadgetId);
        }
        if (clientSuffix != null && clientSuffix.isBlank()) {
            clientSuffix = null;
        }
    }

    public LinkConfig(String brokerUrl, String gadgetId, String password) {
        this(brokerUrl, gadgetId, password, null);
    }

    /** A second connection of the same gadget, as a maker's debugging tool would open. */
    public LinkConfig withSuffix(String suffix) {
        return new LinkConfig(brokerUrl, gadgetId, password, suffix);
    }

    public String clientId() {
        return clientSuffix == null ? gadgetId : gadgetId + "." + clientSuffix;
    }

    /** {@code ringzero/v1/gadgets/{gadgetId}/{suffix}}. */
    public String topic(String suffix) {
        return topicOf(gadgetId, suffix);
    }

    public static String topicOf(String gadgetId, String suffix) {
        return TOPIC_ROOT + gadgetId + "/" + suffix;
    }

    @Override
    public String toString() {
        // never print the credential
        return "LinkConfig[" + brokerUrl + ", " + clientId() + "]";
    }
}
