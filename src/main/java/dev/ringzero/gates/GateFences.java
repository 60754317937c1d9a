package dev.ringzero.gates;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.StoredJson;
import org.springframework.stereotype.Component;

/**
 * How a fence ends pending gates ({@link GateFencing} says when): each still pending ends
 * {@code fenced} with the reason as its result, audited and journaled, and its review task is
 * ended. Its agent is not woken: the change that fenced it is the agent's own.
 */
@Component
class GateFences {

    private final GateStore store;
    private final GateEngine process;
    private final Audit audit;
    private final Journal journal;
    private final ObjectMapper canonicalJson;
    private final Clock clock;

    GateFences(GateStore store, GateEngine process, Audit audit, Journal journal, ObjectMapper json, Clock clock) {
        this.store = store;
        this.process = process;
        this.audit = audit;
        this.journal = journal;
        this.canonicalJson = GateProposals.canonical(json);
        this.clock = clock;
    }

    /** The agent's pending gates; the ids of those it fenced. */
    List<String> ofAgent(String agentId, String reason) {
        return fence(store.pendingOfAgent(agentId), reason);
    }

    /** The gadget's pending gates; the ids of those it fenced. */
    List<String> ofGadget(String gadgetId, String reason) {
        return fence(store.pendingOfGadget(gadgetId), reason);
    }

    private List<String> fence(List<Gate> pending, String reason) {
        List<String> fenced = new ArrayList<>();
        for (Gate gate : pending) {
            String result = StoredJson.write(canonicalJson, Map.of("outcome", "fenced", "reason", reason));
            if (!store.transition(gate.id(), GateState.PENDING, GateState.FENCED, result, clock.instant())) {
                continue;
            }
            Gate ended = store.find(gate.id()).orElseThrow();
            audit.record(ended, Audit.Disposition.FENCED, "system:fence", reason);
            journal.append(ended.agentId(), ended.ownerId(), Journal.Actor.SYSTEM, "gate.fenced", ended.id(),
                    ended.runId(), "Fenced: " + reason, null);
            process.fence(ended);
            fenced.add(ended.id());
        }
        return fenced;
    }
}
