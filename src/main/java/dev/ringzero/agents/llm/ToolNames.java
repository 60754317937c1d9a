package dev.ringzero.agents.llm;

import java.util.regex.Pattern;

/**
 * A capability's name on the model's wire. OpenAI-compatible servers accept only
 * {@code [a-zA-Z0-9_-]} in a function's name, so {@code speaker.say} is offered as
 * {@code speaker__say}; command names never hold two underscores in a row, so the way back is
 * unambiguous.
 */
final class ToolNames {

    private static final Pattern WIRE = Pattern.compile("[a-z0-9_-]{1,64}");

    private ToolNames() {
    }

    static String wire(String capability) {
        return capability.replace(".", "__");
    }

    /** The capability a wire name stands for; empty for a name no capability could have. */
    static java.util.Optional<String> capability(String wireName) {
        if (wireName == null || !WIRE.matcher(wireName).matches() || !wireName.contains("__")) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(wireName.replace("__", "."));
    }
}
