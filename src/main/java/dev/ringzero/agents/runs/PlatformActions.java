package dev.ringzero.agents.runs;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.StoredJson;
import dev.ringzero.agents.AgentStore;
import dev.ringzero.agents.definition.PlatformCatalogue;
import dev.ringzero.agents.definition.StateActions;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.kernel.Subject;
import dev.ringzero.kernel.Verdict;

/**
 * A rules run's platform actions ({@code {"do": …}}), settled within the step that reaches them:
 * a state write is a compare-and-set on the agent's state version, tried again on a fresh read when
 * another run wrote first (so overlapping runs lose no update); a ring-3 intent goes to the
 * approval desk ({@link GateDesk#fileIntent}) and the run goes on, as with a gated command.
 */
final class PlatformActions {

    /** Compare-and-set rounds before a write gives up: only a storm of writers to one agent gets there. */
    static final int MAX_ATTEMPTS = 32;

    private final RunStore runs;
    private final RunAgents agents;
    private final PolicyKernel kernel;
    private final GateDesk gates;
    private final int maxStateBytes;
    private final ObjectMapper json;
    private final Clock clock;

    PlatformActions(RunStore runs, RunAgents agents, PolicyKernel kernel, GateDesk gates, int maxStateBytes,
            ObjectMapper json, Clock clock) {
        this.runs = runs;
        this.agents = agents;
        this.kernel = kernel;
        this.gates = gates;
        this.maxStateBytes = maxStateBytes;
        this.json = json;
        this.clock = clock;
    }

    void run(RunStore.Run run, RunStore.Action action) {
        Map<String, Object> params = StoredJson.map(json, action.params());
        if (PlatformCatalogue.isStateAction(action.command())) {
            writeState(run, action, params);
        } else {
            intent(run, action, params);
        }
    }

    private void writeState(RunStore.Run run, RunStore.Action action, Map<String, Object> params) {
        Verdict standing = kernel.decideStateWrite(subject(run));
        if (!(standing instanceof Verdict.Allow)) {
            String code = standing instanceof Verdict.Deny deny ? deny.reason().wire() : standing.wire();
            end(run, action, standing.wire(), "denied", code, null);
            if (standing instanceof Verdict.Deny deny && deny.reason().isFence()) {
                runs.end(run.id(), RunStatus.FENCED, deny.reason().wire(), clock.instant());
            }
            return;
        }
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Optional<AgentStore.Agent> stored = agents.stored(run.agentId());
            if (stored.isEmpty()) {
                end(run, action, "deny", "denied", "agent_deleted", null);
                return;
            }
            StateActions.Applied applied = StateActions.apply(action.command(), params, object(stored.get().state()));
            if (applied instanceof StateActions.Refused refused) {
                end(run, action, "allow", "failed", refused.code(), json.createObjectNode()
                        .put("message", refused.message()));
                return;
            }
            String written = ((StateActions.Written) applied).state().toString();
            int bytes = written.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > maxStateBytes) {
                end(run, action, "allow", "failed", "state_too_large", json.createObjectNode()
                        .put("message", "the state would be " + bytes + " bytes; at most "
                                + maxStateBytes));
                return;
            }
            int version = stored.get().stateVersion();
            if (agents.writeState(run.agentId(), version, written, clock.instant())) {
                end(run, action, "allow", "completed", null, json.createObjectNode().put("stateVersion", version + 1));
                return;
            }
            // another run wrote first: read its state and apply this action to that
        }
        end(run, action, "allow", "failed", "state_conflict", json.createObjectNode()
                .put("message", "the state kept changing under " + MAX_ATTEMPTS + " attempts"));
    }

    private void intent(RunStore.Run run, RunStore.Action action, Map<String, Object> params) {
        GateDesk.IntentFiled filed = gates.fileIntent(run.ownerId(), run.agentId(), run.revision(), run.id(),
                action.command(), params);
        if (filed instanceof GateDesk.Gated gated) {
            end(run, action, "gate", "gated", null, json.createObjectNode().put("gate", gated.gateId()));
        } else if (filed instanceof GateDesk.Accepted accepted) {
            end(run, action, "allow", "accepted", null, json.createObjectNode().put("gate", accepted.gateId()));
        } else {
            GateDesk.Refused refused = (GateDesk.Refused) filed;
            end(run, action, "deny", "denied", refused.reason(), refused.detail() == null ? null
                    : json.createObjectNode().put("message", refused.detail()));
        }
    }

    private void end(RunStore.Run run, RunStore.Action action, String verdict, String outcome, String code,
            JsonNode result) {
        Instant now = clock.instant();
        runs.actionEnded(run.id(), action.index(), verdict, outcome, code, result == null ? null : result.toString(),
                now);
    }

    private static Subject.AgentRun subject(RunStore.Run run) {
        return new Subject.AgentRun(run.ownerId(), run.agentId(), run.revision(), run.id());
    }

    private ObjectNode object(String state) {
        try {
            JsonNode tree = state == null ? null : json.readTree(state);
            return tree != null && tree.isObject() ? (ObjectNode) tree : json.createObjectNode();
        } catch (JsonProcessingException e) {
            return json.createObjectNode();
        }
    }
}
