package dev.ringzero.gateway;

import java.util.List;

/**
 * What a device may do on the link (CONTRACTS.md §1), as the embedded broker checks it.
 * Mosquitto is given the same rules: {@link DynsecBrokerAccess}'s device role for topics,
 * {@code mqtt-broker/ringzero_clientid.c} for client ids.
 */
public final class DeviceRights {

    /** Device → platform: the only topics a device may publish to, under its own id. */
    public static final List<String> PUBLISHES = List.of(Topics.REGISTER, Topics.STATUS, Topics.EVENTS, Topics.RESULTS);
    /**
     * Platform → device: the only topics a device may subscribe to, under its own id. Publishing
     * to them is the platform's alone, or a board could hand itself an invocation.
     */
    public static final List<String> SUBSCRIBES = List.of(Topics.INVOKE, Topics.CONTROL, Topics.REGISTER_REPLY);

    private DeviceRights() {
    }

    /**
     * A device's client id is its gadget id or {@code {gadgetId}.<suffix>} (a second connection,
     * such as a maker's tool). A broker holds one session per client id and closes the older
     * connection when a newer one logs in, so a device that could use another device's client id
     * could knock it offline; {@code .} cannot appear in a gadget id, so none can.
     */
    public static boolean ownsClientId(String gadgetId, String clientId) {
        if (gadgetId == null || gadgetId.isEmpty() || clientId == null || !clientId.startsWith(gadgetId)) {
            return false;
        }
        String rest = clientId.substring(gadgetId.length());
        return rest.isEmpty() || (rest.length() > 1 && rest.charAt(0) == '.');
    }

    public static boolean mayPublish(String gadgetId, String topic) {
        return isOneOf(gadgetId, topic, PUBLISHES);
    }

    /** Exact topics only: a wildcard filter could reach beyond the three a device may read. */
    public static boolean maySubscribe(String gadgetId, String topicFilter) {
        return isOneOf(gadgetId, topicFilter, SUBSCRIBES);
    }

    private static boolean isOneOf(String gadgetId, String topic, List<String> suffixes) {
        return gadgetId != null && !gadgetId.isEmpty() && topic != null
                && suffixes.stream().anyMatch(suffix -> topic.equals(Topics.of(gadgetId, suffix)));
    }
}
