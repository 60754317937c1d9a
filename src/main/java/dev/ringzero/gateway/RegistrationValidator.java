package dev.ringzero.gateway;

import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Checks a {@code link.register} request before anything of it is stored. A rejected
 * registration is answered with a code and leaves the previous registration in place.
 */
final class RegistrationValidator {

    /** Why a registration was refused: the code goes on the wire in {@code register/reply}. */
    record Rejection(String code, String message) {
    }

    private static final Pattern COMMAND = Pattern.compile("^[a-z][a-z0-9_]*+(?:\\.[a-z][a-z0-9_]*+)++$");
    private static final Pattern EVENT = Pattern.compile("^[a-z][a-z0-9_.]{0,63}$");
    private static final Pattern PARAM = Pattern.compile("^[a-z][a-z0-9_]{0,63}$");
    private static final Set<String> TYPES = Set.of("string", "number", "integer", "boolean", "object", "array");

    private RegistrationValidator() {
    }

    static Optional<Rejection> check(JsonNode request) {
        if (!"link.register".equals(request.path("method").asText()) || !request.path("id").isTextual()) {
            return reject("invalid_request", "expected {type:req, id, method:link.register, params}");
        }
        JsonNode params = request.path("params");
        if (!params.isObject()) {
            return reject("invalid_request", "params must be an object");
        }
        if (params.has("capabilities") && !params.get("capabilities").isObject()) {
            return reject("invalid_capabilities", "capabilities must be an object");
        }
        JsonNode instructions = params.path("instructions");
        if (!instructions.isMissingNode() && (!instructions.isTextual()
                || instructions.asText().length() > LinkLimits.MAX_INSTRUCTIONS_CHARS)) {
            return reject("invalid_instructions",
                    "instructions must be text of at most " + LinkLimits.MAX_INSTRUCTIONS_CHARS + " characters");
        }
        return checkCommands(params.path("commands_v2")).or(() -> checkEvents(params.path("events")));
    }

    private static Optional<Rejection> checkCommands(JsonNode commands) {
        if (!commands.isObject()) {
            return reject("invalid_commands", "commands_v2 must be an object of command name → spec");
        }
        if (commands.size() > LinkLimits.MAX_COMMANDS) {
            return reject("invalid_commands", "at most " + LinkLimits.MAX_COMMANDS + " commands");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = commands.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> command = it.next();
            String name = command.getKey();
            JsonNode spec = command.getValue();
            if (!COMMAND.matcher(name).matches()) {
                return reject("invalid_commands", "command name '" + name + "' is not like 'speaker.say'");
            }
            if (!spec.isObject() || (spec.has("description") && !spec.get("description").isTextual())) {
                return reject("invalid_commands", name + ": spec must be an object with a text description");
            }
            JsonNode timeout = spec.path("timeout_ms");
            if (!timeout.isMissingNode() && (!timeout.canConvertToLong() || timeout.asLong() <= 0
                    || timeout.asLong() > LinkLimits.MAX_TIMEOUT_MS)) {
                return reject("invalid_commands", name + ": timeout_ms must be 1.." + LinkLimits.MAX_TIMEOUT_MS);
            }
            for (String group : new String[] {"required", "optional"}) {
                Optional<Rejection> bad = checkParams(name, group, spec.path(group));
                if (bad.isPresent()) {
                    return bad;
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Rejection> checkParams(String command, String group, JsonNode params) {
        if (params.isMissingNode()) {
            return Optional.empty();
        }
        if (!params.isObject()) {
            return reject("invalid_commands", command + "." + group + " must be an object");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = params.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> param = it.next();
            if (!PARAM.matcher(param.getKey()).matches() || !param.getValue().isObject()
                    || !TYPES.contains(param.getValue().path("type").asText())) {
                return reject("invalid_commands", command + "." + group + "." + param.getKey()
                        + ": needs a name like 'text' and a type among " + TYPES);
            }
        }
        return Optional.empty();
    }

    private static Optional<Rejection> checkEvents(JsonNode events) {
        if (events.isMissingNode()) {
            return Optional.empty();
        }
        if (!events.isArray()) {
            return reject("invalid_events", "events must be an array of {name, description}");
        }
        if (events.size() > LinkLimits.MAX_EVENTS) {
            return reject("invalid_events", "at most " + LinkLimits.MAX_EVENTS + " events");
        }
        Set<String> names = new HashSet<>();
        for (JsonNode event : events) {
            String name = event.path("name").asText("");
            if (!event.isObject() || !EVENT.matcher(name).matches() || !names.add(name)) {
                return reject("invalid_events", "event names must be unique and like 'shaken'");
            }
        }
        return Optional.empty();
    }

    private static Optional<Rejection> reject(String code, String message) {
        return Optional.of(new Rejection(code, message));
    }
}
