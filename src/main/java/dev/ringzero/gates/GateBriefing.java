package dev.ringzero.gates;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

/**
 * What a new run of an agent should know of its gates: those still open, and those that ended
 * since its last run. For the run's context; enforcement never reads it.
 */
@Component
class GateBriefing {

    private final GateStore store;

    GateBriefing(GateStore store) {
        this.store = store;
    }

    /** {@code since} null: the agent never ran, so every gate it ever had. */
    List<Gate> of(String agentId, Instant since) {
        return store.briefing(agentId, since == null ? Instant.EPOCH : since);
    }

    /** {@link #of} as plain maps, for a run's template context ({@code gates}). */
    List<Map<String, Object>> asMaps(String agentId, Instant since) {
        List<Map<String, Object>> gates = new ArrayList<>();
        for (Gate gate : of(agentId, since)) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("id", gate.id());
            view.put("intent", gate.intent());
            view.put("state", gate.state().wire());
            view.put("filedAt", gate.timeline().filedAt().toString());
            view.put("decidedBy", gate.decision().decidedBy());
            view.put("note", gate.decision().note());
            view.put("result", gate.result());
            gates.add(view);
        }
        return gates;
    }
}
