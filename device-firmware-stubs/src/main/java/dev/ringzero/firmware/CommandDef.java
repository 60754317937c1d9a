package dev.ringzero.firmware;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A command a board offers: its {@code commands_v2} entry and its handler.
 * Validation lives here so that every board rejects bad input the same way, before
 * any handler (and any hardware) is touched.
 */
public record CommandDef(String name, String description, Map<String, ParamSpec> required,
                         Map<String, ParamSpec> optional, long timeoutMs, CommandHandler handler) {

    public CommandDef {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(handler, "handler");
        required = Collections.unmodifiableMap(new LinkedHashMap<>(required));
        optional = Collections.unmodifiableMap(new LinkedHashMap<>(optional));
    }

    public static Builder command(String name, String description) {
        return new Builder(name, description);
    }

    /**
     * {@code invalid_params} when a required parameter is missing or null, or a declared
     * parameter has the wrong JSON type. Undeclared parameters are ignored, as the
     * device SDK does, so a newer platform can send extras to older firmware.
     */
    Optional<CommandOutcome.Failed> validate(JsonNode params) {
        if (!params.isObject()) {
            return invalid("params must be a JSON object");
        }
        for (Map.Entry<String, ParamSpec> p : required.entrySet()) {
            JsonNode v = params.get(p.getKey());
            if (v == null || v.isNull()) {
                return invalid("missing required parameter '" + p.getKey() + "'");
            }
            if (!p.getValue().accepts(v)) {
                return invalid("parameter '" + p.getKey() + "' must be " + p.getValue().article());
            }
        }
        for (Map.Entry<String, ParamSpec> p : optional.entrySet()) {
            JsonNode v = params.get(p.getKey());
            if (v != null && !v.isNull() && !p.getValue().accepts(v)) {
                return invalid("parameter '" + p.getKey() + "' must be " + p.getValue().article());
            }
        }
        return Optional.empty();
    }

    private static Optional<CommandOutcome.Failed> invalid(String message) {
        return Optional.of(CommandOutcome.error(CommandOutcome.INVALID_PARAMS, message));
    }

    /** The {@code commands_v2} value for this command. */
    Map<String, Object> toRegistration() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("description", description);
        m.put("required", specs(required));
        m.put("optional", specs(optional));
        m.put("timeout_ms", timeoutMs);
        return m;
    }

    private static Map<String, Object> specs(Map<String, ParamSpec> params) {
        Map<String, Object> m = new LinkedHashMap<>();
        params.forEach((k, v) -> m.put(k, v.toRegistration()));
        return m;
    }

    /** Reads like the registration it produces. */
    public static final class Builder {
        private final String name;
        private final String description;
        private final Map<String, ParamSpec> required = new LinkedHashMap<>();
        private final Map<String, ParamSpec> optional = new LinkedHashMap<>();
        private long timeoutMs = 5_000;

        private Builder(String name, String description) {
            this.name = name;
            this.description = description;
        }

        public Builder required(String param, String type, String description) {
            required.put(param, new ParamSpec(type, description));
            return this;
        }

        public Builder optional(String param, String type, String description) {
            optional.put(param, new ParamSpec(type, description));
            return this;
        }

        public Builder timeoutMs(long timeoutMs) {
            this.timeoutMs = timeoutMs;
            return this;
        }

        public CommandDef handler(CommandHandler handler) {
            return new CommandDef(name, description, required, optional, timeoutMs, handler);
        }
    }
}
