package dev.ringzero.gates;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.accounts.Caller;
import dev.ringzero.agents.AgentStore;
import dev.ringzero.Refusal;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The agent's journal, read by its owner (and, later, briefed to the agent's runs). */
@RestController
@Tag(name = "journal", description = "each agent's append-only timeline: gates, decisions, executions, run notes")
class JournalController {

    private final Journal journal;
    private final AgentStore agents;
    private final ObjectMapper json;

    JournalController(Journal journal, AgentStore agents, ObjectMapper json) {
        this.journal = journal;
        this.agents = agents;
        this.json = json;
    }

    record EntryView(long id, Instant at, String actor, String kind, String gateId, String runId, String text,
            JsonNode data) {
    }

    @GetMapping("/api/v1/gadget-agents/{id}/journal")
    @Operation(summary = "The agent's timeline, oldest first; page with after=<last id seen>")
    List<EntryView> journal(Caller caller, @PathVariable String id, @RequestParam(defaultValue = "0") long after,
            @RequestParam(defaultValue = "200") int limit) {
        agents.findOwned(caller.accountId(), id).orElseThrow(() -> Refusal.notFound("gadget agent"));
        return journal.of(id, Math.max(0, after), Math.max(1, Math.min(limit, 1000))).stream()
                .map(entry -> new EntryView(entry.id(), entry.at(), entry.actor(), entry.kind(), entry.gateId(),
                        entry.runId(), entry.text(), tree(entry.data())))
                .toList();
    }

    private JsonNode tree(String text) {
        try {
            return text == null ? null : json.readTree(text);
        } catch (JsonProcessingException e) {
            return json.getNodeFactory().textNode(text);
        }
    }
}
