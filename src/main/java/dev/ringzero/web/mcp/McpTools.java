package dev.ringzero.web.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.Refusal;
import dev.ringzero.accounts.Caller;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.AgentViews;
import dev.ringzero.agents.definition.AgentSchema;
import dev.ringzero.agents.definition.PlatformCatalogue;
import dev.ringzero.agents.llm.Drafts;
import dev.ringzero.agents.runs.DryRun;
import dev.ringzero.agents.runs.RunViews;
import dev.ringzero.dispatch.DirectCommands;
import dev.ringzero.gadgets.GadgetListings;
import dev.ringzero.gates.GateService;
import dev.ringzero.gates.GateView;
import dev.ringzero.router.InboxService;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The tools, each an adapter like a REST controller: read the arguments, call the one service that
 * decides, render the answer. Descriptions are written for the model that reads them. Every tool
 * acts as the owner whose token came with the request; another owner's ids are "not found".
 */
final class McpTools {

    private static final Logger log = LoggerFactory.getLogger(McpTools.class);

    /** The transport context's key for the authenticated {@link Caller}. */
    static final String CALLER = "dev.ringzero/caller";

    @FunctionalInterface
    interface Handler {
        Object call(String ownerId, ToolArguments arguments);
    }

    private record Definition(String name, String title, String description, String schema, boolean readOnly,
            boolean destructive, Handler handler) {
    }

    private final ObjectMapper json;
    private final McpJsonMapper mcpJson;
    private final List<Definition> definitions = new ArrayList<>();

    McpTools(ObjectMapper json, McpJsonMapper mcpJson, GadgetListings gadgets, DirectCommands commands,
            AgentService agents, AgentViews agentViews, DryRun dryRun, RunViews runs, GateService gates,
            InboxService inbox, ObjectProvider<Drafts> drafts) {
        this.json = json;
        this.mcpJson = mcpJson;

        read("list_gadgets", "List my gadgets",
                "Lists the owner's paired gadgets: for each its id, name, whether it is online now, the commands "
                        + "it registered with their parameters (name, JSON type, required, limits), the events it "
                        + "can emit with their data, its capabilities and its quiet hours (when background sound "
                        + "is suppressed). Use the ids, command names and event names exactly as listed here when "
                        + "writing an agent definition.",
                NO_ARGUMENTS, (owner, args) -> Map.of("gadgets", gadgets.list(owner)));
        write("send_command", "Send a command to a gadget now",
                "Sends one command to one of the owner's gadgets right now, as the owner (the direct path, with the "
                        + "priority of a person): the same policy checks as every agent apply (the command must be "
                        + "registered, parameters must fit, privileged commands are never sent, one mover at a "
                        + "time, the gadget must be online). Waits for the gadget's answer: outcome is completed, "
                        + "accepted (started, e.g. speech being fetched), failed (with errorCode) or unknown (no "
                        + "answer in time; it is never retried). This acts on real hardware.",
                """
                {"type":"object","properties":{
                  "gadget":{"type":"string","description":"the gadget's id, from list_gadgets"},
                  "command":{"type":"string","description":"a command the gadget registered, e.g. display.show_text"},
                  "params":{"type":"object","description":"the command's parameters as the gadget registered them"}},
                 "required":["gadget","command"],"additionalProperties":false}
                """, (owner, args) -> commands.send(owner, args.text("gadget"), args.text("command"),
                        args.optionalMap("params")));
        read("get_definition_schema", "The gadget-agent definition schema",
                "Returns the JSON Schema (draft 2020-12) of a v1 gadget-agent definition: apiVersion "
                        + "\"ringzero/v1\", name, kind (rules or llm), gadgets, triggers (gadget.event with "
                        + "filters, schedule, invoke), actions or the llm prompt and tools, allow (the commands, "
                        + "tools and intents it is granted), budget, concurrency. Read it before writing a "
                        + "definition; create_agent validates against it and against the owner's gadgets.",
                NO_ARGUMENTS, (owner, args) -> AgentSchema.document());
        read("get_catalogue", "Platform tools and intents",
                "Lists the platform tools, intents (actions outside the platform, e.g. email.send, webhook.post, "
                        + "inbox.post, which are gated) and state actions that a definition may grant in "
                        + "allow.tools / allow.intents, each with what it does.",
                NO_ARGUMENTS, (owner, args) -> PlatformCatalogue.catalogue());
        read("list_agents", "List my gadget agents",
                "Lists the owner's gadget agents with their current definition (spec), revision, whether each is "
                        + "enabled, its state, its last run and its proactive budget left.",
                NO_ARGUMENTS, (owner, args) -> Map.of("agents",
                        agents.list(owner).stream().map(agentViews::view).toList()));
        read("get_agent", "Read one gadget agent",
                "Reads one of the owner's gadget agents: its current definition (spec), revision, enabled, state, "
                        + "last run and budget.",
                AGENT_ONLY, (owner, args) -> agentViews.view(agents.current(owner, args.text("agent"))));
        write("create_agent", "Create a gadget agent",
                "Saves a new gadget agent from a v1 definition (see get_definition_schema, list_gadgets and "
                        + "get_catalogue). It starts as its \"enabled\" field says (true when absent): to try "
                        + "it first, create it with \"enabled\": false, dry_run it, then enable_agent. When the "
                        + "definition is invalid nothing is saved and the error lists every problem as "
                        + "{path (a JSON Pointer into the definition), code, message}: fix all of them and call "
                        + "again.",
                DEFINITION_ONLY, (owner, args) -> agentViews.view(agents.create(owner, args.object("definition"))));
        write("update_agent", "Revise a gadget agent",
                "Replaces the definition of one of the owner's agents with a new revision (the whole definition, "
                        + "not a patch). Work queued under the old revision is fenced. Invalid definitions are "
                        + "refused with every {path, code, message}, and the old revision stays current.",
                """
                {"type":"object","properties":{
                  "agent":{"type":"string","description":"the agent's id"},
                  "definition":{"type":"object","description":"the complete new v1 definition"}},
                 "required":["agent","definition"],"additionalProperties":false}
                """, (owner, args) -> agentViews.view(agents.revise(owner, args.text("agent"),
                        args.object("definition"))));
        write("enable_agent", "Enable a gadget agent",
                "Switches one of the owner's agents on: from now on its triggers start runs (within its budget).",
                AGENT_ONLY, (owner, args) -> agentViews.view(agents.setEnabled(owner, args.text("agent"), true)));
        write("disable_agent", "Disable a gadget agent",
                "Switches one of the owner's agents off: no new runs, and work it had queued is fenced.",
                AGENT_ONLY, (owner, args) -> agentViews.view(agents.setEnabled(owner, args.text("agent"), false)));
        destructive("delete_agent", "Delete a gadget agent",
                "Removes one of the owner's agents from service for good (its run history stays readable). Ask "
                        + "the person before deleting.",
                AGENT_ONLY, (owner, args) -> {
                    String agent = args.text("agent");
                    agents.delete(owner, agent);
                    return Map.of("deleted", agent);
                });
        read("dry_run", "Dry-run an agent (no hardware)",
                "Simulates an agent without touching any hardware and without storing anything: which trigger "
                        + "matches, the policy's admission verdict, each action rendered with its parameters and "
                        + "the verdict it would get (allow, deny with a reason, gate). Pass either agent (a saved "
                        + "agent) or definition (an unsaved one, validated first: errors come back as with "
                        + "create_agent). A saved agent that is disabled shows admission deny agent_disabled, with "
                        + "its actions still rendered. The optional trigger is an occurrence, written as in a "
                        + "definition: "
                        + "{\"kind\":\"gadget.event\",\"gadget\":\"<id>\",\"event\":\"shaken\",\"data\":"
                        + "{\"strength\":\"hard\"}}; without one the agent's first trigger is simulated.",
                """
                {"type":"object","properties":{
                  "agent":{"type":"string","description":"a saved agent's id (or give definition)"},
                  "definition":{"type":"object","description":"an unsaved v1 definition (or give agent)"},
                  "trigger":{"type":"object","description":"the occurrence to simulate"}},
                 "additionalProperties":false}
                """, (owner, args) -> {
                    if (args.has("agent") == args.has("definition")) {
                        throw Refusal.invalid(ToolArguments.INVALID, "give exactly one of 'agent' (a saved agent) "
                                + "or 'definition' (an unsaved one)");
                    }
                    JsonNode trigger = args.optionalObject("trigger");
                    return args.has("agent") ? dryRun.saved(owner, args.text("agent"), trigger)
                            : dryRun.unsaved(owner, agents.validate(owner, args.object("definition")), trigger);
                });
        write("run_agent", "Run an agent now (live trial)",
                "Starts a real, explicit run of one of the owner's saved agents now (the invoke trigger; it does "
                        + "not need to be enabled and is not held back by proactive budgets). Its actions reach "
                        + "real hardware through the same policy checks as any run. Answers with the run id; read "
                        + "it with get_run. Use dry_run first when unsure.",
                """
                {"type":"object","properties":{
                  "agent":{"type":"string","description":"the agent's id"},
                  "input":{"type":"object","description":"optional input, available to the run as trigger.input"}},
                 "required":["agent"],"additionalProperties":false}
                """, (owner, args) -> runs.invoke(owner, args.text("agent"), args.optionalObject("input")));
        read("list_runs", "List an agent's runs",
                "Lists the runs of one of the owner's agents, newest first: trigger, status (admitted, running, "
                        + "succeeded, failed, partially_failed; or ended before running as rate_limited, cooldown, "
                        + "fenced, denied, skipped_offline, dropped_concurrency), reason, times. Read one with "
                        + "get_run.",
                AGENT_AND_LIMIT, (owner, args) -> Map.of("runs",
                        runs.history(owner, args.text("agent"), args.number("limit", 20, 1, 500))));
        read("get_run", "Read one run",
                "Reads one of the owner's runs with every action (command, parameters, verdict, outcome: "
                        + "completed, accepted, failed, unknown, denied, gated, dropped_stale; and the device's "
                        + "result), its cost, and for an llm run the model session's transcript (each turn and "
                        + "tool call with the policy's verdict).",
                """
                {"type":"object","properties":{"run":{"type":"string","description":"the run's id"}},
                 "required":["run"],"additionalProperties":false}
                """, (owner, args) -> runs.run(owner, args.text("run")));
        read("explain_runs", "Why did (or didn't) it run?",
                "The decision ledger of one of the owner's agents, newest first: every time a trigger was "
                        + "evaluated (an event arrived, a schedule fired, an invoke) with its reason code: matched "
                        + "(a run started; runId names it), or why not: filtered_out (the trigger's filter did not "
                        + "match; detail says which), disabled, over_budget, cooldown, fenced, dropped_concurrency, "
                        + "gadget_offline, shed_overload. Events that no agent took at all are in the inbox "
                        + "instead.",
                AGENT_AND_LIMIT, (owner, args) -> Map.of("decisions",
                        runs.decisions(owner, args.text("agent"), args.number("limit", 50, 1, 1000))));
        read("list_gates", "List gated actions (read-only)",
                "Lists the owner's gates: actions an agent wanted that need the person's approval (sending an "
                        + "email, posting a webhook, a physical move), with the frozen payload and their state "
                        + "(pending, approved, executing, executed, failed, denied, expired, fenced). Read-only: "
                        + "approving or denying stays "
                        + "with the person, at the approval desk or in Tasklist; no tool here can approve. Tell the "
                        + "person what is waiting instead.",
                """
                {"type":"object","properties":{"state":{"type":"string",
                  "description":"only gates in this state, e.g. pending"}},"additionalProperties":false}
                """, (owner, args) -> Map.of("gates", gates.list(owner, GateView.stateFilter(args.optionalText("state")))
                        .stream().map(gate -> GateView.of(gate, json)).toList()));
        read("read_inbox", "Read my inbox",
                "The owner's inbox, newest first: events from the gadgets that no agent took (the main-chat "
                        + "fallback) and notices addressed to the owner. The same as the resource "
                        + InboxResource.URI + ", which a client can subscribe to.",
                """
                {"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":500}},
                 "additionalProperties":false}
                """, (owner, args) -> Map.of("messages", inbox.list(owner, args.number("limit", 20, 1, 500))));
        read("draft_agent", "Draft an agent from a sentence",
                "Asks the platform's configured model to write a definition from a sentence (e.g. \"when my desk "
                        + "bot is shaken hard, play the bark sound\"), validated and repaired up to 3 times, with "
                        + "its dry run. Nothing is saved: show it to the person, then create_agent.",
                """
                {"type":"object","properties":{"text":{"type":"string","description":"what the agent should do"}},
                 "required":["text"],"additionalProperties":false}
                """, (owner, args) -> drafts.getObject().draft(owner, args.text("text")));
    }

    /** Tools that reach beyond the platform: real hardware, or the configured model. */
    private static final Set<String> OPEN_WORLD = Set.of("send_command", "run_agent", "draft_agent");

    private static final String NO_ARGUMENTS = "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}";
    private static final String AGENT_ONLY = """
            {"type":"object","properties":{"agent":{"type":"string","description":"the agent's id"}},
             "required":["agent"],"additionalProperties":false}
            """;
    private static final String DEFINITION_ONLY = """
            {"type":"object","properties":{"definition":{"type":"object",
              "description":"a complete v1 gadget-agent definition"}},
             "required":["definition"],"additionalProperties":false}
            """;
    private static final String AGENT_AND_LIMIT = """
            {"type":"object","properties":{"agent":{"type":"string","description":"the agent's id"},
              "limit":{"type":"integer","minimum":1,"description":"how many, newest first"}},
             "required":["agent"],"additionalProperties":false}
            """;

    private void read(String name, String title, String description, String schema, Handler handler) {
        definitions.add(new Definition(name, title, description, schema, true, false, handler));
    }

    private void write(String name, String title, String description, String schema, Handler handler) {
        definitions.add(new Definition(name, title, description, schema, false, false, handler));
    }

    private void destructive(String name, String title, String description, String schema, Handler handler) {
        definitions.add(new Definition(name, title, description, schema, false, true, handler));
    }

    List<SyncToolSpecification> specifications() {
        return definitions.stream().map(this::specification).toList();
    }

    private SyncToolSpecification specification(Definition definition) {
        Set<String> allowed = new LinkedHashSet<>();
        try {
            json.readTree(definition.schema()).path("properties").fieldNames().forEachRemaining(allowed::add);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the input schema of " + definition.name() + " is not JSON", e);
        }
        McpSchema.Tool tool = McpSchema.Tool.builder().name(definition.name()).title(definition.title())
                .description(definition.description()).inputSchema(mcpJson, definition.schema())
                .annotations(new McpSchema.ToolAnnotations(definition.title(), definition.readOnly(),
                        definition.destructive(), null, OPEN_WORLD.contains(definition.name()), null))
                .build();
        return SyncToolSpecification.builder().tool(tool)
                .callHandler((exchange, request) -> call(definition, allowed, exchange, request)).build();
    }

    private McpSchema.CallToolResult call(Definition definition, Set<String> allowed, McpSyncServerExchange exchange,
            McpSchema.CallToolRequest request) {
        try {
            Caller caller = (Caller) exchange.transportContext().get(CALLER);
            if (caller == null) {
                throw new Refusal(Refusal.Kind.UNAUTHENTICATED, "unauthorized", "a valid credential is required");
            }
            ToolArguments arguments = ToolArguments.of(request.arguments(), allowed, json);
            return success(definition.handler().call(caller.accountId(), arguments));
        } catch (Refusal refusal) {
            return error(refusal.slug(), refusal.getMessage(), refusal.properties());
        } catch (RuntimeException e) {
            log.warn("MCP tool {} failed", definition.name(), e);
            return error("internal-error", "the tool failed inside the platform; nothing more is known", Map.of());
        }
    }

    private McpSchema.CallToolResult success(Object value) {
        JsonNode tree = json.valueToTree(value);
        return McpSchema.CallToolResult.builder().addTextContent(pretty(tree))
                .structuredContent(json.convertValue(tree.isObject() ? tree
                        : json.createObjectNode().set("result", tree), Map.class))
                .isError(false).build();
    }

    /** A refusal as the model reads it: the stable slug, a message, and (for a definition) every problem. */
    McpSchema.CallToolResult error(String slug, String message, Map<String, Object> properties) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", slug);
        body.put("message", message);
        body.putAll(properties);
        JsonNode tree = json.valueToTree(body);
        return McpSchema.CallToolResult.builder().addTextContent(pretty(tree))
                .structuredContent(json.convertValue(tree, Map.class))
                .isError(true).build();
    }

    private String pretty(JsonNode tree) {
        try {
            return json.writerWithDefaultPrettyPrinter().writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            return tree.toString();
        }
    }
}
