package dev.ringzero.agents.llm;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.agents.definition.PlatformCatalogue;
import dev.ringzero.gadgets.CommandSpec;
import dev.ringzero.gadgets.RegisteredCommands;

/**
 * Where one tool call the model asked for goes, before ring 0 is asked: a bound gadget's command
 * (a run action), a platform tool, a ring-3 intent, or nowhere (a name no tool has, arguments that
 * are not a JSON object or do not fit the command as the gadget registered it). A call of a
 * capability the allowlist does not hold is routed all the same: the kernel refuses it, and the
 * refusal is on the record.
 */
final class ToolRouting {

    /** What a call routes to. */
    sealed interface Route {
    }

    record Command(String gadgetId, String command, ObjectNode params) implements Route {
    }

    record Tool(String tool, ObjectNode arguments) implements Route {
    }

    record Intent(String intent, ObjectNode payload) implements Route {
    }

    /** Refused before ring 0: {@code code} is {@code unknown_tool} or {@code invalid_arguments}. */
    record Refused(String capability, String code, String message) implements Route {
    }

    /** One JSON document and nothing after it, as the model's arguments must be. */
    private static final ObjectMapper STRICT = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private ToolRouting() {
    }

    static Route route(ToolCall call, AgentSpec spec, RegisteredCommands registered) {
        Optional<String> named = ToolNames.capability(call.name());
        if (named.isEmpty()) {
            return new Refused(null, "unknown_tool", "there is no tool '" + call.name() + "'");
        }
        String capability = named.get();
        ObjectNode arguments;
        try {
            JsonNode parsed = call.arguments().isBlank() ? STRICT.createObjectNode() : STRICT.readTree(call.arguments());
            if (parsed == null || !parsed.isObject()) {
                return new Refused(capability, "invalid_arguments", "the arguments must be a JSON object");
            }
            arguments = (ObjectNode) parsed;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return new Refused(capability, "invalid_arguments", "the arguments are not JSON: "
                    + e.getOriginalMessage());
        }
        if (PlatformCatalogue.isTool(capability)) {
            return new Tool(capability, arguments);
        }
        if (PlatformCatalogue.isIntegrationIntent(capability)) {
            return new Intent(capability, arguments);
        }
        return command(capability, arguments, spec, registered);
    }

    private static Route command(String command, ObjectNode arguments, AgentSpec spec, RegisteredCommands registered) {
        JsonNode target = arguments.remove(SessionTools.GADGET);
        List<String> offering = spec.gadgets().stream()
                .filter(gadget -> registered.command(gadget, command).isPresent()).toList();
        String gadget;
        if (target != null) {
            if (!target.isTextual() || !spec.gadgets().contains(target.asText())) {
                return new Refused(command, "invalid_arguments", "'" + SessionTools.GADGET + "' must be one of "
                        + spec.gadgets());
            }
            gadget = target.asText();
        } else if (offering.size() > 1) {
            return new Refused(command, "invalid_arguments", "say which gadget in '" + SessionTools.GADGET + "': one of "
                    + offering);
        } else if (!offering.isEmpty()) {
            gadget = offering.get(0);
        } else if (!spec.gadgets().isEmpty()) {
            gadget = spec.gadgets().get(0); // no bound gadget offers it: the kernel says so
        } else {
            return new Refused(command, "unknown_tool", "there is no tool '" + ToolNames.wire(command) + "'");
        }
        Optional<CommandSpec> registration = registered.command(gadget, command);
        if (registration.isPresent()) {
            List<CommandSpec.ParamProblem> problems = registration.get().problems(arguments, value -> false);
            if (!problems.isEmpty()) {
                return new Refused(command, "invalid_arguments", String.join("; ",
                        problems.stream().map(CommandSpec.ParamProblem::message).toList()));
            }
        }
        return new Command(gadget, command, arguments);
    }
}
