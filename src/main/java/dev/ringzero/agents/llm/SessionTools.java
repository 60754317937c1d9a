package dev.ringzero.agents.llm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.agents.definition.PlatformCatalogue;
import dev.ringzero.gadgets.CommandSpec;
import dev.ringzero.gadgets.RegisteredCommands;

/**
 * The tools a session's model sees: exactly the definition's allowlist. Each allowed command that
 * a bound gadget registers now (its {@code commands_v2} parameters become the tool's JSON Schema,
 * plus {@value #GADGET} when more than one bound gadget offers it), each allowed platform tool and
 * each allowed ring-3 intent. A description teaches the model how to call a tool; it never grants
 * anything: the kernel decides every call.
 */
final class SessionTools {

    /** The argument that names which bound gadget a command goes to. */
    static final String GADGET = "target_gadget";

    private static final ObjectMapper JSON = new ObjectMapper();

    private SessionTools() {
    }

    /** The tools of a run of {@code spec}, in the order of its allowlist. */
    static List<ToolSpec> of(AgentSpec spec, RegisteredCommands registered) {
        List<ToolSpec> tools = new ArrayList<>();
        for (String command : spec.allow().commands()) {
            Map<String, CommandSpec> offering = new LinkedHashMap<>();
            for (String gadget : spec.gadgets()) {
                registered.command(gadget, command).ifPresent(found -> offering.put(gadget, found));
            }
            if (!offering.isEmpty()) {
                tools.add(command(command, offering));
            }
        }
        for (String tool : spec.allow().tools()) {
            platformTool(tool).ifPresent(tools::add);
        }
        for (String intent : spec.allow().intents()) {
            intent(intent).ifPresent(tools::add);
        }
        return tools;
    }

    private static ToolSpec command(String command, Map<String, CommandSpec> offering) {
        CommandSpec first = offering.values().iterator().next();
        ObjectNode schema = object();
        ObjectNode properties = (ObjectNode) schema.get("properties");
        ArrayNode required = (ArrayNode) schema.get("required");
        first.required().forEach((name, param) -> {
            properties.set(name, param(param));
            required.add(name);
        });
        first.optional().forEach((name, param) -> properties.set(name, param(param)));
        if (offering.size() > 1) {
            ObjectNode gadget = properties.putObject(GADGET).put("type", "string")
                    .put("description", "which gadget to send it to");
            ArrayNode names = gadget.putArray("enum");
            offering.keySet().forEach(names::add);
            required.add(GADGET);
        }
        String description = (first.description() == null || first.description().isBlank() ? command
                : first.description()) + " (gadget" + (offering.size() > 1 ? "s " : " ")
                + String.join(", ", offering.keySet()) + ")";
        return new ToolSpec(ToolNames.wire(command), command, ToolSpec.Kind.COMMAND, description, schema.toString());
    }

    private static ObjectNode param(CommandSpec.ParamSpec param) {
        ObjectNode node = JSON.createObjectNode();
        if (param.type() != null && List.of("string", "number", "integer", "boolean", "object", "array")
                .contains(param.type().toLowerCase(java.util.Locale.ROOT))) {
            node.put("type", param.type().toLowerCase(java.util.Locale.ROOT));
        }
        if (param.description() != null && !param.description().isBlank()) {
            node.put("description", param.description());
        }
        return node;
    }

    /** A platform tool's schema; empty for a name the catalogue does not list. */
    static Optional<ToolSpec> platformTool(String tool) {
        Optional<PlatformCatalogue.Entry> entry = PlatformCatalogue.tool(tool);
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode schema = object();
        if ("state.set".equals(tool)) {
            ObjectNode properties = (ObjectNode) schema.get("properties");
            properties.putObject("state").put("type", "object").put("description", "the whole new state document");
            properties.putObject("version").put("type", "integer")
                    .put("description", "the version state.get returned; a write over a newer one is refused");
            ((ArrayNode) schema.get("required")).add("state").add("version");
        }
        return Optional.of(new ToolSpec(ToolNames.wire(tool), tool, ToolSpec.Kind.TOOL, entry.get().description(),
                schema.toString()));
    }

    /** A ring-3 intent's schema; empty for a name the catalogue does not list. */
    static Optional<ToolSpec> intent(String intent) {
        Optional<PlatformCatalogue.Entry> entry = PlatformCatalogue.intent(intent);
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode schema = object();
        ObjectNode properties = (ObjectNode) schema.get("properties");
        ArrayNode required = (ArrayNode) schema.get("required");
        if ("email.send".equals(intent)) {
            properties.putObject("to").put("type", "array").putObject("items").put("type", "string");
            properties.putObject("subject").put("type", "string");
            properties.putObject("body").put("type", "string");
            required.add("to").add("subject").add("body");
        } else if ("webhook.post".equals(intent)) {
            properties.putObject("url").put("type", "string");
            properties.putObject("body").put("type", "object");
            required.add("url");
        }
        String description = entry.get().description()
                + " The owner's trust rules decide: it runs now, waits for the owner's approval, or is refused.";
        return Optional.of(new ToolSpec(ToolNames.wire(intent), intent, ToolSpec.Kind.INTENT, description,
                schema.toString()));
    }

    private static ObjectNode object() {
        ObjectNode schema = JSON.createObjectNode().put("type", "object");
        schema.putObject("properties");
        schema.putArray("required");
        schema.put("additionalProperties", false);
        return schema;
    }
}
