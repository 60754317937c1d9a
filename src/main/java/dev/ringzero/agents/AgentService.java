package dev.ringzero.agents;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.agents.definition.DefinitionValidator;
import dev.ringzero.agents.definition.Validation;
import dev.ringzero.Refusal;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Ring 1's definitions: validated, owner-scoped, versioned. Revising writes a new immutable
 * revision and makes it current, which fences every run and queued action of the old one.
 */
@Service
public class AgentService {

    /** Published after every change that can fence work or move schedules. */
    public record AgentChanged(String agentId, String ownerId, Change change) {
        public enum Change { CREATED, REVISED, ENABLED, DISABLED, DELETED }
    }

    /** An agent with its current spec. */
    public record CurrentAgent(AgentStore.Agent agent, AgentSpec spec) {
    }

    private final AgentStore store;
    private final DefinitionValidator validator;
    private final ObjectMapper json;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    /** Revisions are immutable, so a parsed spec can be kept for as long as we like. */
    private final Map<String, AgentSpec> specs = new ConcurrentHashMap<>();

    AgentService(AgentStore store, DefinitionValidator validator, ObjectMapper json, ApplicationEventPublisher events,
            Clock clock) {
        this.store = store;
        this.validator = validator;
        this.json = json;
        this.events = events;
        this.clock = clock;
    }

    @Transactional
    public CurrentAgent create(String ownerId, JsonNode body) {
        AgentSpec spec = validate(ownerId, body);
        String id = UUID.randomUUID().toString();
        store.insert(id, ownerId, spec, spec.toJson().toString(), clock.instant());
        events.publishEvent(new AgentChanged(id, ownerId, AgentChanged.Change.CREATED));
        return current(ownerId, id);
    }

    @Transactional
    public CurrentAgent revise(String ownerId, String id, JsonNode body) {
        AgentStore.Agent agent = owned(ownerId, id);
        AgentSpec spec = validate(ownerId, body);
        if (!store.revise(id, agent.currentRevision(), spec, spec.toJson().toString(), clock.instant())) {
            throw Refusal.conflict("concurrent-revision", "the agent was revised meanwhile; read it and retry");
        }
        events.publishEvent(new AgentChanged(id, ownerId, AgentChanged.Change.REVISED));
        return current(ownerId, id);
    }

    @Transactional
    public CurrentAgent setEnabled(String ownerId, String id, boolean enabled) {
        owned(ownerId, id);
        store.setEnabled(id, enabled, clock.instant());
        events.publishEvent(new AgentChanged(id, ownerId,
                enabled ? AgentChanged.Change.ENABLED : AgentChanged.Change.DISABLED));
        return current(ownerId, id);
    }

    @Transactional
    public void delete(String ownerId, String id) {
        owned(ownerId, id);
        store.delete(id, clock.instant());
        events.publishEvent(new AgentChanged(id, ownerId, AgentChanged.Change.DELETED));
    }

    /** The agent's state as runs last left it, with its version (each write adds one). */
    public record StateView(JsonNode state, int version) {
    }

    public StateView state(String ownerId, String id) {
        AgentStore.Agent agent = owned(ownerId, id);
        return new StateView(readTree(agent.state()), agent.stateVersion());
    }

    /**
     * Back to the current revision's initial {@code state}: a write like any other (the version goes
     * up), so a run that read the old state and writes after this finds the version moved on and
     * applies its change to the reset state instead.
     */
    @Transactional
    public StateView resetState(String ownerId, String id) {
        owned(ownerId, id);
        AgentStore.Agent agent = store.lock(id).orElseThrow(() -> Refusal.notFound("gadget agent"));
        String initial = spec(agent.id(), agent.currentRevision()).state().toString();
        int version = store.writeState(agent.id(), agent.stateVersion(), initial, clock.instant())
                .orElseThrow(() -> new IllegalStateException("the state moved on under the agent's row lock"));
        return new StateView(readTree(initial), version);
    }

    private JsonNode readTree(String text) {
        try {
            return json.readTree(text == null ? "{}" : text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return json.createObjectNode();
        }
    }

    public CurrentAgent current(String ownerId, String id) {
        AgentStore.Agent agent = owned(ownerId, id);
        return new CurrentAgent(agent, spec(agent.id(), agent.currentRevision()));
    }

    public List<CurrentAgent> list(String ownerId) {
        return store.list(ownerId).stream()
                .map(agent -> new CurrentAgent(agent, spec(agent.id(), agent.currentRevision()))).toList();
    }

    /** Any stored revision (runs read the one they were admitted under). */
    public AgentSpec spec(String agentId, int revision) {
        return specs.computeIfAbsent(agentId + "#" + revision, key -> store.spec(agentId, revision)
                .map(this::parse).orElseThrow(() -> new IllegalStateException("no revision " + key)));
    }

    public Optional<CurrentAgent> find(String agentId) {
        return store.find(agentId).filter(agent -> !agent.deleted())
                .map(agent -> new CurrentAgent(agent, spec(agent.id(), agent.currentRevision())));
    }

    /** Validates a definition for this owner without storing it (dry runs of unsaved bodies). */
    public AgentSpec validate(String ownerId, JsonNode body) {
        Validation validation = validator.validate(body, ownerId);
        if (validation instanceof Validation.Invalid invalid) {
            throw Refusal.invalidDefinition("the definition is invalid (" + invalid.violations().size() + " problems)",
                    invalid.violations());
        }
        return ((Validation.Valid) validation).spec();
    }

    private AgentStore.Agent owned(String ownerId, String id) {
        return store.findOwned(ownerId, id).orElseThrow(() -> Refusal.notFound("gadget agent"));
    }

    private AgentSpec parse(String specJson) {
        try {
            return AgentSpec.from(json.readTree(specJson));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored spec is always valid JSON", e);
        }
    }
}
