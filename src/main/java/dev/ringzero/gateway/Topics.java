package dev.ringzero.gateway;

import java.util.Optional;

/** The link's topic layout (docs/contracts.md §1): {@code ringzero/v1/gadgets/{gadgetId}/{suffix}}. */
public final class Topics {

    public static final String ROOT = "ringzero/v1/gadgets/";
    public static final String REGISTER = "register";
    public static final String REGISTER_REPLY = "register/reply";
    public static final String STATUS = "status";
    public static final String EVENTS = "events";
    public static final String INVOKE = "invoke";
    public static final String RESULTS = "results";
    public static final String CONTROL = "control";

    /** Topic filters the platform subscribes to (device → platform), but for answers. */
    public static final String[] INBOUND = {ROOT + "+/" + REGISTER, ROOT + "+/" + STATUS, ROOT + "+/" + EVENTS};
    /** Device answers ({@code link.result}): subscribed on a connection of their own. */
    public static final String[] ANSWERS = {ROOT + "+/" + RESULTS};

    private Topics() {
    }

    public static String of(String gadgetId, String suffix) {
        return ROOT + gadgetId + "/" + suffix;
    }

    /** A gadget topic split into its id and suffix; empty for any other topic. */
    public record Parsed(String gadgetId, String suffix) {
    }

    public static Optional<Parsed> parse(String topic) {
        if (!topic.startsWith(ROOT)) {
            return Optional.empty();
        }
        String rest = topic.substring(ROOT.length());
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1) {
            return Optional.empty();
        }
        return Optional.of(new Parsed(rest.substring(0, slash), rest.substring(slash + 1)));
    }
}
