package dev.ringzero.agents;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.accounts.Caller;
import dev.ringzero.agents.AgentViews.AgentView;
import dev.ringzero.agents.definition.AgentSchema;
import dev.ringzero.agents.definition.PlatformCatalogue;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Tag(name = "gadget-agents", description = "ring 1 definitions: create, revise, enable, inspect")
class AgentController {

    private final AgentService agents;
    private final AgentViews views;

    AgentController(AgentService agents, AgentViews views) {
        this.agents = agents;
        this.views = views;
    }

    @PostMapping("/api/v1/gadget-agents")
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "Create a gadget agent from a validated v1 definition")
    AgentView create(Caller caller, @RequestBody JsonNode body) {
        return view(agents.create(caller.accountId(), body));
    }

    @GetMapping("/api/v1/gadget-agents")
    List<AgentView> list(Caller caller) {
        return agents.list(caller.accountId()).stream().map(this::view).toList();
    }

    @GetMapping("/api/v1/gadget-agents/{id}")
    AgentView get(Caller caller, @PathVariable String id) {
        return view(agents.current(caller.accountId(), id));
    }

    @GetMapping("/api/v1/gadget-agents/{id}/revisions/{revision}")
    @Operation(summary = "One stored revision's spec (revisions are immutable and kept)")
    JsonNode revision(Caller caller, @PathVariable String id, @PathVariable int revision) {
        var current = agents.current(caller.accountId(), id);
        if (revision < 1 || revision > current.agent().currentRevision()) {
            throw dev.ringzero.Refusal.notFound("revision");
        }
        return agents.spec(id, revision).toJson();
    }

    @PutMapping("/api/v1/gadget-agents/{id}")
    @Operation(summary = "Revise: a new immutable revision becomes current; work of the old one is fenced")
    AgentView revise(Caller caller, @PathVariable String id, @RequestBody JsonNode body) {
        return view(agents.revise(caller.accountId(), id, body));
    }

    @DeleteMapping("/api/v1/gadget-agents/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(summary = "Remove from service; history stays for Cockpit and the run list")
    void delete(Caller caller, @PathVariable String id) {
        agents.delete(caller.accountId(), id);
    }

    @GetMapping("/api/v1/gadget-agents/{id}/state")
    @Operation(summary = "The agent's state as its runs left it, with its version (every write adds one)")
    AgentService.StateView state(Caller caller, @PathVariable String id) {
        return agents.state(caller.accountId(), id);
    }

    @DeleteMapping("/api/v1/gadget-agents/{id}/state")
    @Operation(summary = "Reset the state to the current revision's initial state (a write: the version goes up)")
    AgentService.StateView resetState(Caller caller, @PathVariable String id) {
        return agents.resetState(caller.accountId(), id);
    }

    @PostMapping("/api/v1/gadget-agents/{id}/enable")
    AgentView enable(Caller caller, @PathVariable String id) {
        return view(agents.setEnabled(caller.accountId(), id, true));
    }

    @PostMapping("/api/v1/gadget-agents/{id}/disable")
    @Operation(summary = "Disable: no new runs, and queued work of this agent is fenced")
    AgentView disable(Caller caller, @PathVariable String id) {
        return view(agents.setEnabled(caller.accountId(), id, false));
    }

    @GetMapping("/api/v1/schemas/gadget-agent")
    @Operation(summary = "The v1 definition's JSON Schema")
    JsonNode schema() {
        return AgentSchema.document();
    }

    @GetMapping("/api/v1/catalogue")
    @Operation(summary = "Platform tools and intents an agent may be granted")
    PlatformCatalogue.Catalogue catalogue() {
        return PlatformCatalogue.catalogue();
    }

    private AgentView view(AgentService.CurrentAgent current) {
        return views.view(current);
    }
}
