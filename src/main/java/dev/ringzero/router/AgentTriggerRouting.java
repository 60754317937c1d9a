package dev.ringzero.router;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.agents.AgentStore;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.TriggerMatcher;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.agents.runs.DecisionLedger;
import dev.ringzero.agents.runs.RunRequest;
import dev.ringzero.agents.runs.RunEngine;
import org.springframework.stereotype.Component;

/**
 * The router's agent matcher: every agent listening for this gadget and event is evaluated and
 * the evaluation recorded in the decision ledger; each match starts one {@code agent-run}
 * (admission happens there). A match counts even when admission then limits or fences the
 * run, so a limited agent never leaks its event to the main-chat fallback.
 */
@Component
class AgentTriggerRouting implements TriggerRouter.Matcher {

    private final AgentStore store;
    private final AgentService agents;
    private final DecisionLedger ledger;
    private final RunEngine launcher;
    private final ObjectMapper json;
    private final Clock clock;

    AgentTriggerRouting(AgentStore store, AgentService agents, DecisionLedger ledger, RunEngine launcher,
            ObjectMapper json, Clock clock) {
        this.store = store;
        this.agents = agents;
        this.ledger = ledger;
        this.launcher = launcher;
        this.json = json;
        this.clock = clock;
    }

    @Override
    public boolean route(TriggerRouter.StoredEvent event) {
        Map<String, Object> data = read(event.data());
        List<AgentStore.Agent> matched = matching(event, data);
        String trigger = matched.isEmpty() ? null : triggerData(event, data);
        for (AgentStore.Agent agent : matched) {
            launcher.start(new RunRequest(UUID.randomUUID().toString(), agent.id(), agent.ownerId(),
                    agent.currentRevision(), "gadget.event", trigger, event.id(), true));
        }
        return !matched.isEmpty();
    }

    @Override
    public boolean shed(TriggerRouter.StoredEvent event, java.time.Duration age) {
        List<AgentStore.Agent> matched = matching(event, read(event.data()));
        for (AgentStore.Agent agent : matched) {
            ledger.record(agent, event.id(), "gadget.event", "shed_overload",
                    "at least " + age.toMillis() + " ms old when its turn to be routed came; not acted on late", null);
        }
        return !matched.isEmpty();
    }

    /**
     * The owner's enabled agents whose trigger matches the event. Every other agent listening for
     * it has its decision recorded here ({@code disabled}, {@code filtered_out}), whatever then
     * becomes of the matches. All of them are locked as they are read, as admission locks an
     * agent: the admissions of this transaction then read none of them again.
     */
    private List<AgentStore.Agent> matching(TriggerRouter.StoredEvent event, Map<String, Object> data) {
        List<AgentStore.Agent> matched = new ArrayList<>();
        for (AgentStore.Agent agent : store.lockListening(event.gadgetId(), event.ownerId(), event.name())) {
            if (!agent.enabled()) {
                ledger.record(agent, event.id(), "gadget.event", "disabled", null, null);
                continue;
            }
            AgentSpec spec = agents.spec(agent.id(), agent.currentRevision());
            TriggerMatcher.Match match = TriggerMatcher.evaluate(spec, event.gadgetId(), event.name(), data,
                    event.receivedAt());
            if (match instanceof TriggerMatcher.FilteredOut filtered) {
                ledger.record(agent, event.id(), "gadget.event", "filtered_out",
                        filtered.filter() + ": " + filtered.detail(), null);
            } else if (match instanceof TriggerMatcher.Matched) {
                matched.add(agent);
            }
        }
        return matched;
    }

    private String triggerData(TriggerRouter.StoredEvent event, Map<String, Object> data) {
        Map<String, Object> trigger = new LinkedHashMap<>();
        trigger.put("kind", "gadget.event");
        trigger.put("gadget", Map.of("id", event.gadgetId()));
        trigger.put("event", Map.of("id", event.deviceEventId(), "name", event.name(), "data", data,
                "receivedAt", event.receivedAt().toString()));
        try {
            return json.writeValueAsString(trigger);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Map<String, Object> read(String text) {
        try {
            return json.readValue(text, new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (JsonProcessingException e) {
            return Map.of();
        }
    }
}
