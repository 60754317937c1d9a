package dev.ringzero.gates;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ringzero.accounts.Tokens;
import dev.ringzero.web.ApiProblem;
import dev.ringzero.workflow.GateProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The approval desk's rules: file a gate with a frozen payload, record a human decision
 * exactly once, execute an approved gate exactly once, expire what nobody answered. The
 * BPMN process {@code gate} carries the waiting; this class holds the decisions.
 */
@Service
public class GateService implements dev.ringzero.agents.runs.GateDesk {

    private static final Logger log = LoggerFactory.getLogger(GateService.class);

    private final GateStore store;
    private final GateProcess process;
    private final List<IntentExecutor> executors;
    private final ObjectMapper canonicalJson;
    private final Clock clock;

    GateService(GateStore store, GateProcess process, List<IntentExecutor> executors, ObjectMapper json, Clock clock) {
        this.store = store;
        this.process = process;
        this.executors = executors;
        // Canonical bytes: sorted keys, so the same payload always hashes the same.
        this.canonicalJson = json.copy().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
        this.clock = clock;
    }

    /** What a gate is asked to do, before it is frozen. */
    public record Filing(String ownerId, String agentId, String runId, String intent, String gadgetId,
            JsonNode payload, String rationale) {
    }

    @Transactional
    public Gate file(Filing filing) {
        if (executors.stream().noneMatch(executor -> executor.handles(filing.intent()))) {
            throw ApiProblem.badRequest("unknown-intent", "no executor for intent '" + filing.intent() + "'");
        }
        String frozen = canonical(filing.payload());
        Gate gate = new Gate(UUID.randomUUID().toString(), filing.ownerId(), filing.agentId(), filing.runId(),
                filing.intent(), filing.gadgetId(), frozen, Tokens.sha256(frozen), filing.rationale(),
                GateState.PENDING, null, null, null, null, clock.instant(), null, null, null);
        store.insert(gate);
        String instanceId = process.start(gate, readable(gate));
        store.attachProcess(gate.id(), instanceId);
        return store.find(gate.id()).orElseThrow();
    }

    @Override
    @Transactional
    public String fileForRun(String ownerId, String agentId, String runId, String gadgetId, String command,
            java.util.Map<String, Object> params, String ruleId) {
        com.fasterxml.jackson.databind.node.ObjectNode payload = canonicalJson.createObjectNode();
        payload.put("gadget", gadgetId);
        payload.put("command", command);
        payload.set("params", canonicalJson.valueToTree(params));
        return file(new Filing(ownerId, agentId, runId, command, gadgetId, payload,
                "agent run " + runId + (ruleId == null ? " (default: gate)" : " (trust rule " + ruleId + ")"))).id();
    }

    public Gate get(String ownerId, String gateId) {
        return store.findOwned(ownerId, gateId).orElseThrow(() -> ApiProblem.notFound("gate"));
    }

    public List<Gate> list(String ownerId, GateState state) {
        return store.list(ownerId, state, 200);
    }

    /** The REST desk: completes the same user task Tasklist shows, as the owner. */
    public Gate decideAsOwner(String ownerId, String gateId, boolean approve, String note) {
        Gate gate = get(ownerId, gateId);
        if (gate.state() != GateState.PENDING) {
            throw notPending(gate);
        }
        if (!process.completeReview(gate, ownerId, approve, note)) {
            throw notPending(store.find(gateId).orElseThrow());
        }
        return store.find(gateId).orElseThrow();
    }

    /**
     * Called when the review task completes (Tasklist or REST), inside the engine's
     * transaction: a second or concurrent decision finds the gate no longer pending and fails.
     */
    public void recordDecision(String gateId, boolean approve, String decidedBy, String note) {
        GateState to = approve ? GateState.APPROVED : GateState.DENIED;
        if (!store.decide(gateId, to, decidedBy, note, clock.instant())) {
            throw notPending(store.find(gateId).orElseThrow());
        }
    }

    /**
     * Runs an approved gate's executor once. The compare-and-set to {@code executing} happens
     * first and commits with the job, so a crash after it can never lead to a blind re-send.
     */
    public void execute(String gateId) {
        if (!store.transition(gateId, GateState.APPROVED, GateState.EXECUTING, null, clock.instant())) {
            log.info("gate {} is not approved any more; nothing to execute", gateId);
            return;
        }
        Gate gate = store.find(gateId).orElseThrow();
        IntentExecutor executor = executors.stream().filter(e -> e.handles(gate.intent())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no executor for " + gate.intent()));
        try {
            String result = executor.execute(gate);
            store.transition(gateId, GateState.EXECUTING, GateState.EXECUTED, result, clock.instant());
        } catch (Exception e) {
            log.warn("gate {} failed: {}", gateId, e.toString());
            store.transition(gateId, GateState.EXECUTING, GateState.FAILED,
                    "{\"error\":" + quote(e.getMessage()) + "}", clock.instant());
        }
    }

    public void expire(String gateId) {
        store.transition(gateId, GateState.PENDING, GateState.EXPIRED, null, clock.instant());
    }

    private ApiProblem notPending(Gate gate) {
        return ApiProblem.conflict("gate-not-pending", "gate " + gate.id() + " is " + gate.state().wire());
    }

    private String canonical(JsonNode payload) {
        try {
            Object tree = canonicalJson.treeToValue(payload == null ? canonicalJson.createObjectNode() : payload,
                    Object.class);
            return canonicalJson.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw ApiProblem.badRequest("malformed-payload", "payload is not valid JSON");
        }
    }

    /** The frozen payload as a person reads it in the Tasklist form. */
    private Map<String, Object> readable(Gate gate) {
        try {
            Object tree = canonicalJson.readValue(gate.payload(), Object.class);
            String pretty = canonicalJson.writerWithDefaultPrettyPrinter().writeValueAsString(tree);
            return Map.of("intent", gate.intent(),
                    "requestedBy", gate.agentId() == null ? "you (direct)" : "agent " + gate.agentId(),
                    "rationale", gate.rationale() == null ? "" : gate.rationale(),
                    "payloadText", pretty,
                    "payloadSha256", gate.payloadSha256(),
                    "filedAt", gate.filedAt().toString());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a frozen payload is always JSON", e);
        }
    }

    private static String quote(String text) {
        try {
            return new ObjectMapper().writeValueAsString(text == null ? "" : text);
        } catch (JsonProcessingException e) {
            return "\"\"";
        }
    }

    Instant now() {
        return clock.instant();
    }
}
