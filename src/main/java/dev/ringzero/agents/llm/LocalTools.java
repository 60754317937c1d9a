package dev.ringzero.agents.llm;

import java.nio.charset.StandardCharsets;
import java.time.Clock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.agents.AgentStore;
import dev.ringzero.agents.definition.DefinitionLimits;
import dev.ringzero.gates.Journal;

/**
 * The platform tools, run once the kernel allowed them: they read or write only the run's own
 * agent and owner. Each returns what the model reads back, never throws for what the model sent.
 */
final class LocalTools {

    /** The owner's calendar, as the tools read it (adapted from ring 3's calendar feeds). */
    interface Calendar {
        JsonNode today(String ownerId);

        JsonNode nextMeeting(String ownerId);
    }

    /** What a tool did: its outcome ({@code ok}, {@code conflict}, {@code invalid}, {@code failed}) and the result. */
    record Result(String outcome, JsonNode content) {
    }

    private static final int JOURNAL_ENTRIES = 20;

    private final AgentStore agents;
    private final Journal journal;
    private final Calendar calendar;
    private final DefinitionLimits limits;
    private final ObjectMapper json;
    private final Clock clock;

    LocalTools(AgentStore agents, Journal journal, Calendar calendar, DefinitionLimits limits, ObjectMapper json,
            Clock clock) {
        this.agents = agents;
        this.journal = journal;
        this.calendar = calendar;
        this.limits = limits;
        this.json = json;
        this.clock = clock;
    }

    Result run(String tool, String ownerId, String agentId, ObjectNode arguments) {
        try {
            return switch (tool) {
                case "state.get" -> stateGet(agentId);
                case "state.set" -> stateSet(agentId, arguments);
                case "calendar.today" -> ok(calendar.today(ownerId));
                case "calendar.next_meeting" -> ok(calendar.nextMeeting(ownerId));
                case "journal.read" -> journalRead(agentId);
                default -> new Result("invalid", text("no platform tool " + tool));
            };
        } catch (RuntimeException e) {
            // a tool's own failure (a feed that cannot be read, ...) is the model's to hear, not the run's end
            return new Result("failed", text(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
    }

    private Result stateGet(String agentId) {
        return agents.find(agentId).map(agent -> {
            ObjectNode content = json.createObjectNode().put("version", agent.stateVersion());
            content.set("state", tree(agent.state()));
            return ok(content);
        }).orElseGet(() -> new Result("failed", text("the agent is gone")));
    }

    private Result stateSet(String agentId, ObjectNode arguments) {
        JsonNode state = arguments.get("state");
        JsonNode version = arguments.get("version");
        if (state == null || !state.isObject() || version == null || !version.canConvertToInt()
                || !version.isIntegralNumber()) {
            return new Result("invalid", text("state.set needs {\"state\": {...}, \"version\": <the version "
                    + "state.get returned>}"));
        }
        String written = state.toString();
        int bytes = written.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > limits.maxStateBytes()) {
            return new Result("invalid", text("state is " + bytes + " bytes; at most " + limits.maxStateBytes()));
        }
        return agents.writeState(agentId, version.intValue(), written, clock.instant())
                .map(next -> ok(json.createObjectNode().put("version", next)))
                .orElseGet(() -> new Result("conflict", text("the state is no longer at version " + version.intValue()
                        + ": read it again with state.get")));
    }

    private Result journalRead(String agentId) {
        ArrayNode entries = json.createArrayNode();
        for (Journal.Entry entry : journal.recent(agentId, JOURNAL_ENTRIES)) {
            ObjectNode node = entries.addObject().put("at", entry.at().toString()).put("kind", entry.kind())
                    .put("text", entry.text());
            if (entry.gateId() != null) {
                node.put("gate", entry.gateId());
            }
        }
        return ok(entries);
    }

    private Result ok(JsonNode content) {
        return new Result("ok", content);
    }

    private JsonNode text(String message) {
        return json.getNodeFactory().textNode(message);
    }

    private JsonNode tree(String text) {
        try {
            return text == null ? json.createObjectNode() : json.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return json.createObjectNode();
        }
    }
}
