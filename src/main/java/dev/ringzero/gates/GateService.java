package dev.ringzero.gates;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.Refusal;
import dev.ringzero.agents.runs.GateDesk;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The approval desk's one entry point for its callers (the gate process's delegates, the REST desk,
 * the runs, envelopes): file a gate with a frozen payload, record a human decision exactly once,
 * execute an approved gate exactly once, reconcile one a crash interrupted, expire or fence what
 * nobody answered. It holds the transaction boundaries; the rules live in its parts, one each:
 * {@link GateProposals} and {@link GateFiling} (filing), {@link AutoExecution}, {@link GateDecisions},
 * {@link ExactlyOnce} and {@link GateSettlement} (exactly-once execution and reconciliation),
 * {@link ReviewExpiry}, {@link GateFences}, {@link GateBriefing} and {@link RunActionRecords}.
 *
 * <p>Every transition is a compare-and-set on {@code rz_gate}; the one that wins writes the audit
 * row and the journal line in the same transaction. The BPMN process {@code gate} carries the
 * waiting.
 */
@Service
public class GateService implements GateDesk {

    private final GateStore store;
    private final IntentExecutors executors;
    private final GateProposals proposals;
    private final GateFiling filing;
    private final AutoExecution auto;
    private final GateDecisions decisions;
    private final ExactlyOnce execution;
    private final ReviewExpiry expiry;
    private final GateFences fences;
    private final GateBriefing briefing;
    private final RunActionRecords runActions;
    private final RunIntents runIntents;
    private final GateEngine engine;

    GateService(GateStore store, IntentExecutors executors, GateProposals proposals, GateFiling filing,
            AutoExecution auto, GateDecisions decisions, ExactlyOnce execution, ReviewExpiry expiry,
            GateFences fences, GateBriefing briefing, RunActionRecords runActions, RunIntents runIntents,
            GateEngine engine) {
        this.engine = engine;
        this.store = store;
        this.executors = executors;
        this.proposals = proposals;
        this.filing = filing;
        this.auto = auto;
        this.decisions = decisions;
        this.execution = execution;
        this.expiry = expiry;
        this.fences = fences;
        this.briefing = briefing;
        this.runActions = runActions;
        this.runIntents = runIntents;
    }

    /** What a gate is asked to do, before it is frozen. {@code ruleId}: the trust rule that gated it. */
    public record Filing(String ownerId, String agentId, String runId, String intent, String gadgetId,
            JsonNode payload, String rationale, String ruleId) {
    }

    // ---------------------------------------------------------------- filing

    @Transactional
    public Gate file(Filing filing) {
        return this.filing.file(filing);
    }

    @Override
    @Transactional
    public String fileForRun(String ownerId, String agentId, String runId, String gadgetId, String command,
            Map<String, Object> params, String ruleId) {
        return filing.file(new Filing(ownerId, agentId, runId, command, gadgetId,
                proposals.deviceCommand(gadgetId, command, params),
                "agent run " + runId + " proposed " + command + " on " + gadgetId, ruleId)).id();
    }

    @Override
    @Transactional
    public IntentFiled fileIntent(String ownerId, String agentId, int revision, String runId, String intent,
            Map<String, Object> payload) {
        return runIntents.file(new dev.ringzero.kernel.Subject.AgentRun(ownerId, agentId, revision, runId), intent,
                payload);
    }

    /**
     * An action the trust ladder let through: recorded as an {@code auto} gate that is already
     * {@code executing} (committed before anything runs), then executed at once by its executor.
     * Returns the gate as it ended; a device command still in flight stays {@code executing}.
     */
    public Gate executeAuto(Filing filing) {
        return auto.execute(filing);
    }

    // ---------------------------------------------------------------- reading

    public Gate get(String ownerId, String gateId) {
        return store.findOwned(ownerId, gateId).orElseThrow(() -> Refusal.notFound("gate"));
    }

    public List<Gate> list(String ownerId, GateState state) {
        return store.list(ownerId, state, 200);
    }

    /** Ended gates of every owner, newest first (the analysts' history); see {@link GateStore#ended}. */
    public List<Gate> ended(String agentId, String gadgetId, List<String> states, java.time.Instant from,
            java.time.Instant to, java.time.Instant afterFiledAt, String afterId, int limit) {
        return store.ended(agentId, gadgetId, states, from, to, afterFiledAt, afterId, limit);
    }

    /** The Tasklist task a pending gate waits in, for a link to its form; empty once decided. */
    public java.util.Optional<String> reviewTaskId(Gate gate) {
        return gate.state() == GateState.PENDING ? engine.reviewTaskId(gate) : java.util.Optional.empty();
    }

    /**
     * What a new run of the agent should know: its gates still open, and those that ended since
     * {@code since} (its last run). For the run's context; enforcement never reads it.
     */
    public List<Gate> briefing(String agentId, Instant since) {
        return briefing.of(agentId, since);
    }

    /** {@link #briefing} as plain maps, for a run's template context ({@code gates}). */
    public List<Map<String, Object>> briefingOf(String agentId, Instant since) {
        return briefing.asMaps(agentId, since);
    }

    /** A run's device command the kernel (or the mover lease) refused: audited and journaled. */
    @Override
    @Transactional
    public void refused(String ownerId, String agentId, String runId, String command, String reason) {
        runActions.refused(ownerId, agentId, runId, command, reason);
    }

    /**
     * A run's device command the trust ladder let through without a human ({@code ruleId} null: the
     * default), with its outcome: audited as auto-executed and journaled.
     */
    @Override
    @Transactional
    public void autoExecuted(String ownerId, String agentId, String runId, String command, String ruleId,
            String outcome) {
        runActions.autoExecuted(ownerId, agentId, runId, command, ruleId, outcome);
    }

    // ---------------------------------------------------------------- deciding

    /** The REST desk: completes the same user task Tasklist shows, as the owner. */
    public Gate decideAsOwner(String ownerId, String gateId, boolean approve, String note) {
        return decisions.decideAsOwner(ownerId, gateId, approve, note);
    }

    /**
     * Called when the review task completes (Tasklist or REST), inside the engine's transaction: a
     * second or concurrent decision finds the gate no longer pending and fails, so its task
     * completion rolls back.
     */
    public void recordDecision(String gateId, boolean approve, String decidedBy, String note) {
        decisions.record(gateId, approve, decidedBy, note);
    }

    // ---------------------------------------------------------------- executing

    /**
     * approved → executing, in a job of its own that commits before the executor is called: from
     * here on every look at the gate reconciles instead of acting.
     */
    public boolean beginExecution(String gateId) {
        return execution.begin(gateId);
    }

    /**
     * Runs the executor of a gate that is committed {@code executing}. Empty when the gate is settled
     * (or was not executing); otherwise how long to wait for the device's answer.
     */
    public Optional<Duration> execute(String gateId) {
        return execution.execute(gateId);
    }

    /**
     * Settles an {@code executing} gate from its executor's trace: a device's answer arrived, its
     * answer timer fired, a job is retried, or the platform restarted. If no attempt ever left the
     * platform it executes now (that is no repeat). Returns whether the gate is settled.
     */
    public boolean reconcile(String gateId) {
        return execution.reconcile(gateId);
    }

    /** A device answered an invocation: true when it was a gate's (now settled if it was executing). */
    public boolean onDeviceAnswer(String invocationId) {
        return execution.onDeviceAnswer(invocationId);
    }

    /** The executing gates a start-up reconciliation must look at. */
    List<Gate> executing() {
        return execution.executing();
    }

    // ---------------------------------------------------------------- expiring, fencing

    /** The review timer fired: pending → expired. */
    public void expire(String gateId) {
        expiry.expire(gateId);
    }

    /** The agent was disabled, revised or deleted: its pending gates end fenced. */
    @Transactional
    public List<String> fenceAgent(String agentId, String reason) {
        return fences.ofAgent(agentId, reason);
    }

    /** The gadget was unpaired: pending gates for it end fenced. */
    @Transactional
    public List<String> fenceGadget(String gadgetId, String reason) {
        return fences.ofGadget(gadgetId, reason);
    }

    Optional<IntentExecutor> executorFor(String intent) {
        return executors.forIntent(intent);
    }
}
