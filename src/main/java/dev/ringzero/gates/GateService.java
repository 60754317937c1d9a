package dev.ringzero.gates;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.StoredJson;
import dev.ringzero.accounts.Tokens;
import dev.ringzero.agents.runs.GateDesk;
import dev.ringzero.kernel.DenyReason;
import dev.ringzero.Refusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The approval desk's rules: file a gate with a frozen payload, record a human decision exactly
 * once, execute an approved gate exactly once, reconcile one a crash interrupted, expire or fence
 * what nobody answered. Every transition is a compare-and-set on {@code rz_gate}; the one that wins
 * writes the audit row and the journal line in the same transaction. The BPMN process {@code gate}
 * carries the waiting; this class holds the decisions.
 *
 * <p>Exactly-once: the move to {@code executing} commits (its own job) before the executor runs; the
 * executor leaves a durable trace before anything leaves the platform, keyed by the gate id; every
 * later look at an {@code executing} gate — a job retry, a device's answer, the answer timer, the
 * start-up reconciliation — goes through {@link IntentExecutor#reconcile}, which reads that trace and
 * never acts blindly a second time.
 */
@Service
public class GateService implements GateDesk {

    private static final Logger log = LoggerFactory.getLogger(GateService.class);

    private final GateStore store;
    private final GateEngine process;
    private final List<IntentExecutor> executors;
    private final Audit audit;
    private final Journal journal;
    private final Continuations continuations;
    private final TransactionTemplate transaction;
    private final ObjectMapper canonicalJson;
    private final Clock clock;

    GateService(GateStore store, GateEngine process, List<IntentExecutor> executors, Audit audit, Journal journal,
            Continuations continuations, PlatformTransactionManager transactions, ObjectMapper json, Clock clock) {
        this.store = store;
        this.process = process;
        this.executors = executors;
        this.audit = audit;
        this.journal = journal;
        this.continuations = continuations;
        this.transaction = new TransactionTemplate(transactions);
        // Canonical bytes: sorted keys, so the same payload always hashes the same.
        this.canonicalJson = json.copy().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
        this.clock = clock;
    }

    /** What a gate is asked to do, before it is frozen. {@code ruleId}: the trust rule that gated it. */
    public record Filing(String ownerId, String agentId, String runId, String intent, String gadgetId,
            JsonNode payload, String rationale, String ruleId) {
    }

    // ---------------------------------------------------------------- filing

    @Transactional
    public Gate file(Filing filing) {
        IntentExecutor executor = executorFor(filing.intent())
                .orElseThrow(() -> Refusal.invalid("unknown-intent", "no executor for intent '"
                        + filing.intent() + "'"));
        JsonNode payload = filing.payload() == null ? canonicalJson.createObjectNode() : filing.payload();
        executor.validate(filing.ownerId(), filing.intent(), payload);
        String frozen = canonical(payload);
        Gate gate = Gate.pending(UUID.randomUUID().toString(), proposal(filing, frozen), filing.ruleId(),
                clock.instant());
        store.insert(gate);
        audit.record(gate, Audit.Disposition.GATED, gate.decider(), filing.rationale());
        journal.append(gate.agentId(), gate.ownerId(), Journal.Actor.KERNEL, "gate.filed", gate.id(), gate.runId(),
                "Proposed " + gate.intent() + "; it waits for the owner (" + why(gate) + ")", gate.payload());
        String instanceId = process.start(gate, readable(gate));
        store.attachProcess(gate.id(), instanceId);
        return store.find(gate.id()).orElseThrow();
    }

    @Override
    @Transactional
    public String fileForRun(String ownerId, String agentId, String runId, String gadgetId, String command,
            Map<String, Object> params, String ruleId) {
        ObjectNode payload = canonicalJson.createObjectNode();
        payload.put("gadget", gadgetId);
        payload.put("command", command);
        payload.set("params", canonicalJson.valueToTree(params));
        return file(new Filing(ownerId, agentId, runId, command, gadgetId, payload,
                "agent run " + runId + " proposed " + command + " on " + gadgetId, ruleId)).id();
    }

    /**
     * An action the trust ladder let through: recorded as an {@code auto} gate that is already
     * {@code executing} (committed before anything runs), then executed at once by its executor.
     * Returns the gate as it ended; a device command still in flight stays {@code executing}.
     */
    public Gate executeAuto(Filing filing) {
        IntentExecutor executor = executorFor(filing.intent())
                .orElseThrow(() -> Refusal.invalid("unknown-intent", "no executor for intent '"
                        + filing.intent() + "'"));
        JsonNode payload = filing.payload() == null ? canonicalJson.createObjectNode() : filing.payload();
        executor.validate(filing.ownerId(), filing.intent(), payload);
        String frozen = canonical(payload);
        Gate gate = Gate.auto(UUID.randomUUID().toString(), proposal(filing, frozen), filing.ruleId(),
                clock.instant());
        transaction.executeWithoutResult(status -> {
            store.insert(gate);
            journal.append(gate.agentId(), gate.ownerId(), Journal.Actor.KERNEL, "action.auto", gate.id(),
                    gate.runId(), gate.intent() + " runs without asking (" + why(gate) + ")", gate.payload());
        });
        Execution execution = executor.execute(gate);
        if (execution instanceof Execution.InFlight inFlight) {
            executor.awaitOutcome(gate, inFlight.answerWithin());
            execution = executor.reconcile(gate);
        }
        Execution outcome = execution;
        transaction.executeWithoutResult(status -> apply(gate, outcome));
        return store.find(gate.id()).orElseThrow();
    }

    // ---------------------------------------------------------------- reading

    public Gate get(String ownerId, String gateId) {
        return store.findOwned(ownerId, gateId).orElseThrow(() -> Refusal.notFound("gate"));
    }

    public List<Gate> list(String ownerId, GateState state) {
        return store.list(ownerId, state, 200);
    }

    /**
     * What a new run of the agent should know: its gates still open, and those that ended since
     * {@code since} (its last run). For the run's context; enforcement never reads it.
     */
    public List<Gate> briefing(String agentId, Instant since) {
        return store.briefing(agentId, since == null ? Instant.EPOCH : since);
    }

    /**
     * A run's device command the kernel refused: audited and journaled. Meant for {@link GateDesk}
     * (add it to the port and call it from AgentRuns.dispatch).
     */
    @Transactional
    public void refused(String ownerId, String agentId, String runId, String command, String reason) {
        // the kernel allowed a mover_busy one: the mover lease at dispatch refused it
        boolean lease = DenyReason.MOVER_BUSY.wire().equals(reason);
        audit.append(ownerId, agentId, runId, null, command, Audit.Disposition.REFUSED,
                lease ? "system:mover-lease" : "kernel", null, reason);
        journal.append(agentId, ownerId, lease ? Journal.Actor.SYSTEM : Journal.Actor.KERNEL, "action.refused", null,
                runId, "Refused " + command + " (" + reason + ")", null);
    }

    /**
     * A run's device command the trust ladder let through without a human ({@code ruleId} null: the
     * default), with its outcome: audited as auto-executed and journaled. Meant for {@link GateDesk}.
     */
    @Transactional
    public void autoExecuted(String ownerId, String agentId, String runId, String command, String ruleId,
            String outcome) {
        audit.append(ownerId, agentId, runId, null, command, Audit.Disposition.AUTO_EXECUTED,
                ruleId == null ? "default" : "trust-rule:" + ruleId, ruleId, outcome);
        journal.append(agentId, ownerId, Journal.Actor.KERNEL, "action.auto", null, runId,
                command + " ran without asking (" + outcome + ")", null);
    }

    /** {@link #briefing} as plain maps, for a run's template context ({@code gates}). */
    public List<Map<String, Object>> briefingOf(String agentId, Instant since) {
        List<Map<String, Object>> gates = new ArrayList<>();
        for (Gate gate : briefing(agentId, since)) {
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

    // ---------------------------------------------------------------- deciding

    /** The REST desk: completes the same user task Tasklist shows, as the owner. */
    public Gate decideAsOwner(String ownerId, String gateId, boolean approve, String note) {
        Gate gate = get(ownerId, gateId);
        if (gate.state() != GateState.PENDING || gate.processInstanceId() == null) {
            throw notPending(gate);
        }
        if (!process.completeReview(gate, ownerId, approve, note)) {
            throw notPending(store.find(gateId).orElseThrow());
        }
        return store.find(gateId).orElseThrow();
    }

    /**
     * Called when the review task completes (Tasklist or REST), inside the engine's transaction: a
     * second or concurrent decision finds the gate no longer pending and fails, so its task
     * completion rolls back.
     */
    public void recordDecision(String gateId, boolean approve, String decidedBy, String note) {
        GateState to = approve ? GateState.APPROVED : GateState.DENIED;
        if (!store.decide(gateId, to, decidedBy, note, clock.instant())) {
            throw notPending(store.find(gateId).orElseThrow());
        }
        Gate gate = store.find(gateId).orElseThrow();
        audit.record(gate, approve ? Audit.Disposition.APPROVED : Audit.Disposition.DENIED, decidedBy, note);
        journal.append(gate.agentId(), gate.ownerId(), Journal.Actor.DESK, approve ? "gate.approved" : "gate.denied",
                gate.id(), gate.runId(), (approve ? "Approved" : "Denied") + " by " + decidedBy
                        + (note == null || note.isBlank() ? "" : ": " + note), null);
        if (!approve) {
            continuations.resolved(gate);
        }
    }

    // ---------------------------------------------------------------- executing

    /**
     * approved → executing, in a job of its own that commits before the executor is called: from
     * here on every look at the gate reconciles instead of acting.
     */
    public boolean beginExecution(String gateId) {
        if (!store.transition(gateId, GateState.APPROVED, GateState.EXECUTING, null, clock.instant())) {
            log.info("gate {} is not approved any more; nothing to execute", gateId);
            return false;
        }
        Gate gate = store.find(gateId).orElseThrow();
        journal.append(gate.agentId(), gate.ownerId(), Journal.Actor.EXECUTOR, "gate.executing", gate.id(),
                gate.runId(), "Executing " + gate.intent() + " on the trusted side", null);
        return true;
    }

    /**
     * Runs the executor of a gate that is committed {@code executing}. Empty when the gate is settled
     * (or was not executing); otherwise how long to wait for the device's answer.
     */
    public Optional<Duration> execute(String gateId) {
        Gate gate = store.find(gateId).orElseThrow();
        if (gate.state() != GateState.EXECUTING) {
            return Optional.empty();
        }
        return apply(gate, executorOf(gate).execute(gate));
    }

    /**
     * Settles an {@code executing} gate from its executor's trace: a device's answer arrived, its
     * answer timer fired, a job is retried, or the platform restarted. If no attempt ever left the
     * platform it executes now (that is no repeat). Returns whether the gate is settled.
     */
    public boolean reconcile(String gateId) {
        Gate gate = store.find(gateId).orElse(null);
        if (gate == null || gate.state() != GateState.EXECUTING) {
            return true;
        }
        IntentExecutor executor = executorOf(gate);
        Execution execution = executor.reconcile(gate);
        if (execution instanceof Execution.NotStarted) {
            execution = executor.execute(gate);
            if (execution instanceof Execution.InFlight inFlight) {
                executor.awaitOutcome(gate, inFlight.answerWithin());
                execution = executor.reconcile(gate);
            }
        }
        Execution settled = execution;
        return transaction.execute(status -> apply(gate, settled)).isEmpty();
    }

    /** A device answered an invocation: true when it was a gate's (now settled if it was executing). */
    public boolean onDeviceAnswer(String invocationId) {
        Optional<Gate> gate = store.find(invocationId);
        gate.filter(found -> found.state() == GateState.EXECUTING).ifPresent(found -> reconcile(found.id()));
        return gate.isPresent();
    }

    /** The executing gates a start-up reconciliation must look at. */
    List<Gate> executing() {
        return store.inState(GateState.EXECUTING);
    }

    private Optional<Duration> apply(Gate gate, Execution execution) {
        if (execution instanceof Execution.InFlight inFlight) {
            return Optional.of(inFlight.answerWithin());
        }
        if (execution instanceof Execution.Done done) {
            finish(gate, GateState.EXECUTED, done.result());
        } else if (execution instanceof Execution.Failed failed) {
            finish(gate, GateState.FAILED, failed.result());
        } else {
            finish(gate, GateState.FAILED, "{\"outcome\":\"failed\",\"error\":\"not_started\"}");
        }
        return Optional.empty();
    }

    private void finish(Gate gate, GateState to, String result) {
        if (!store.transition(gate.id(), GateState.EXECUTING, to, result, clock.instant())) {
            return; // someone else settled it first
        }
        Gate ended = store.find(gate.id()).orElseThrow();
        Audit.Disposition disposition = to == GateState.FAILED ? Audit.Disposition.FAILED
                : ended.auto() ? Audit.Disposition.AUTO_EXECUTED : Audit.Disposition.EXECUTED;
        audit.record(ended, disposition, ended.decider(), result);
        journal.append(ended.agentId(), ended.ownerId(), Journal.Actor.EXECUTOR, "gate." + to.wire(), ended.id(),
                ended.runId(), (to == GateState.EXECUTED ? "Executed " : "Failed: ") + ended.intent()
                        + summary(result), result);
        continuations.resolved(ended);
    }

    // ---------------------------------------------------------------- expiring, fencing

    /** The review timer fired: pending → expired. */
    public void expire(String gateId) {
        if (!store.transition(gateId, GateState.PENDING, GateState.EXPIRED, null, clock.instant())) {
            return;
        }
        Gate gate = store.find(gateId).orElseThrow();
        audit.record(gate, Audit.Disposition.EXPIRED, "system:timer", "nobody answered in time");
        journal.append(gate.agentId(), gate.ownerId(), Journal.Actor.DESK, "gate.expired", gate.id(), gate.runId(),
                "Expired: nobody answered in time", null);
        continuations.resolved(gate);
    }

    /** The agent was disabled, revised or deleted: its pending gates end fenced. */
    @Transactional
    public List<String> fenceAgent(String agentId, String reason) {
        return fence(store.pendingOfAgent(agentId), reason);
    }

    /** The gadget was unpaired: pending gates for it end fenced. */
    @Transactional
    public List<String> fenceGadget(String gadgetId, String reason) {
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

    // ---------------------------------------------------------------- helpers

    Optional<IntentExecutor> executorFor(String intent) {
        return executors.stream().filter(executor -> executor.handles(intent)).findFirst();
    }

    private IntentExecutor executorOf(Gate gate) {
        return executorFor(gate.intent())
                .orElseThrow(() -> new IllegalStateException("no executor for " + gate.intent()));
    }

    private Refusal notPending(Gate gate) {
        return Refusal.conflict("gate-not-pending", "gate " + gate.id() + " is " + gate.state().wire());
    }

    private static String why(Gate gate) {
        return gate.ruleId() == null ? "default for " + gate.intent() : "trust rule " + gate.ruleId();
    }

    private String summary(String result) {
        try {
            JsonNode node = canonicalJson.readTree(result);
            String outcome = node.path("outcome").asText("");
            String detail = node.path("message").asText(node.path("reason").asText(""));
            return outcome.isEmpty() ? "" : " (" + outcome + (detail.isEmpty() ? "" : ": " + detail) + ")";
        } catch (JsonProcessingException | RuntimeException e) {
            return "";
        }
    }

    private static Gate.Proposal proposal(Filing filing, String frozen) {
        return new Gate.Proposal(filing.ownerId(), filing.agentId(), filing.runId(), filing.intent(),
                filing.gadgetId(), frozen, Tokens.sha256(frozen), filing.rationale());
    }

    private String canonical(JsonNode payload) {
        try {
            Object tree = canonicalJson.treeToValue(payload, Object.class);
            return canonicalJson.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw Refusal.invalid("malformed-payload", "payload is not valid JSON");
        }
    }

    /** The frozen payload as a person reads it in the Tasklist form. */
    private Map<String, Object> readable(Gate gate) {
        try {
            JsonNode payload = canonicalJson.readTree(gate.payload());
            Object tree = canonicalJson.treeToValue(payload, Object.class);
            String pretty = canonicalJson.writerWithDefaultPrettyPrinter().writeValueAsString(tree);
            Map<String, Object> variables = new LinkedHashMap<>();
            variables.put("intent", gate.intent());
            variables.put("requestedBy", gate.agentId() == null ? "you (direct)" : "agent " + gate.agentId()
                    + (gate.runId() == null ? "" : ", run " + gate.runId()));
            variables.put("rationale", gate.proposal().rationale() == null ? "" : gate.proposal().rationale());
            variables.put("summary", GateSummary.of(gate.intent(), payload));
            variables.put("whyAsked", gate.ruleId() == null
                    ? "No trust rule of yours matches, and " + gate.intent() + " waits for you by default."
                    : "Your trust rule " + gate.ruleId() + " sends this to you.");
            variables.put("payloadText", pretty);
            variables.put("payloadSha256", gate.proposal().payloadSha256());
            variables.put("filedAt", gate.timeline().filedAt().toString());
            return variables;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a frozen payload is always JSON", e);
        }
    }

    Instant now() {
        return clock.instant();
    }
}
