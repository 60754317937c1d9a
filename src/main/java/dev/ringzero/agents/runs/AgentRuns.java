package dev.ringzero.agents.runs;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.StoredJson;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.AgentStore;
import dev.ringzero.agents.KernelBudgets;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.agents.definition.Templates;
import dev.ringzero.gateway.Dispatcher;
import dev.ringzero.gateway.Outcome;
import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.Budget;
import dev.ringzero.kernel.Claim;
import dev.ringzero.kernel.CommandKind;
import dev.ringzero.policy.SpeakerFloor;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.Subject;
import dev.ringzero.kernel.Verdict;
import org.springframework.stereotype.Service;

/**
 * What an agent run does at each step of {@code processes/agent-run.bpmn}: admission (kernel
 * standing and budgets, then the concurrency mode), rendering actions, dispatching each through
 * the kernel, settling outcomes, and finishing with a status. The process carries the waiting;
 * this class holds the decisions and the records.
 */
@Service
public class AgentRuns {

    /** Admission's answer: the status to go on with, and whether queued runs must be cancelled. */
    public record Admission(RunStatus status, String reason, List<String> cancelRuns) {
    }

    /**
     * What dispatching one action did: sent (wait for the answer until {@code answerDeadline}),
     * waiting for the gadget's speaker (at most until {@code runDeadline}), or settled now.
     */
    public record DispatchStep(boolean sent, boolean waiting, String invocationId, Instant answerDeadline,
            Instant runDeadline) {

        static DispatchStep settled() {
            return new DispatchStep(false, false, null, null, null);
        }
    }

    /** What a run does after a step: dispatch its next unsettled action, time out, or finish. */
    public enum Next {
        ACTION("action"), TIMED_OUT("timed_out"), DONE("done");

        private final String wire;

        Next(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    /** A margin past the device's deadline, so an answer sent at the last moment still counts. */
    static final Duration ANSWER_GRACE = Duration.ofSeconds(1);

    private final RunStore runs;
    private final AgentStore agentStore;
    private final AgentService agents;
    private final PolicyKernel kernel;
    private final Dispatcher dispatcher;
    private final GateDesk gates;
    private final SpeakerFloor floor;
    private final ObjectMapper json;
    private final Clock clock;

    AgentRuns(RunStore runs, AgentStore agentStore, AgentService agents, PolicyKernel kernel, Dispatcher dispatcher,
            GateDesk gates, SpeakerFloor floor, ObjectMapper json, Clock clock) {
        this.gates = gates;
        this.floor = floor;
        this.runs = runs;
        this.agentStore = agentStore;
        this.agents = agents;
        this.kernel = kernel;
        this.dispatcher = dispatcher;
        this.json = json;
        this.clock = clock;
    }

    /**
     * Decides whether the run may start. Holds the agent's row lock until the transaction ends, so
     * concurrent triggers are admitted one at a time against the same durable counters.
     */
    public Admission admit(RunRequest request) {
        agentStore.lock(request.agentId()); // admissions of one agent run one at a time
        // read the clock only once the lock is held, so no admitted run can be "later" than now
        Instant now = clock.instant();
        AgentSpec spec = agents.spec(request.agentId(), request.revision());
        Subject.AgentRun subject = subject(request);
        Verdict verdict = kernel.admitRun(subject, KernelBudgets.of(spec), runs.usage(request.agentId(), now),
                request.proactive(), now);
        Admission admission = concurrency(verdict, spec, request);
        boolean admitted = admission.status() == RunStatus.ADMITTED;
        boolean counted = admitted || admission.status() == RunStatus.QUEUED;
        boolean ended = !counted;
        // an admitted run starts in this transaction (prepare is its next step), so it is recorded
        // running at once: nobody could see it admitted, and the row is written once, not twice
        RunStatus recorded = admitted ? RunStatus.RUNNING : admission.status();
        runs.insert(new RunStore.Run(request.runId(), request.agentId(), request.ownerId(), request.revision(),
                request.triggerKind(), request.triggerData(), request.eventId(), request.proactive(),
                recorded.wire(), admission.reason(), now, admitted ? now : null, ended ? now : null), counted);
        for (String cancelled : admission.cancelRuns()) {
            runs.end(cancelled, RunStatus.DROPPED_CONCURRENCY.wire(), "restarted by run " + request.runId(), now);
        }
        if (!"invoke".equals(request.triggerKind())) {
            runs.decide(UUID.randomUUID().toString(), request.agentId(), request.ownerId(), request.eventId(),
                    request.triggerKind(), decisionReason(admission.status()), admission.reason(), request.runId(),
                    now);
        }
        return admission;
    }

    private Admission concurrency(Verdict verdict, AgentSpec spec, RunRequest request) {
        if (spec.kind() == AgentSpec.Kind.LLM && verdict instanceof Verdict.Allow) {
            // no model runtime is configured in this build: say so rather than "succeed" doing nothing
            return new Admission(RunStatus.DENIED, "llm_runtime_unavailable", List.of());
        }
        if (verdict instanceof Verdict.Deny deny) {
            return new Admission(deny.reason().isFence() ? RunStatus.FENCED : RunStatus.DENIED, deny.reason().wire(),
                    List.of());
        }
        if (verdict instanceof Verdict.OverBudget over) {
            return new Admission(Budget.COOLDOWN_SECONDS.equals(over.budget()) ? RunStatus.COOLDOWN
                    : RunStatus.RATE_LIMITED, over.budget() + (over.nextEligibleAt() == null ? ""
                    : "; next eligible at " + over.nextEligibleAt()), List.of());
        }
        if (!(verdict instanceof Verdict.Allow)) {
            return new Admission(RunStatus.DENIED, verdict.wire(), List.of());
        }
        List<RunStore.Run> active = runs.active(request.agentId());
        return switch (spec.concurrency()) {
            case SINGLE -> active.isEmpty() ? admitted()
                    : new Admission(RunStatus.DROPPED_CONCURRENCY, "single: run " + active.get(0).id()
                            + " is active", List.of());
            case PARALLEL -> active.size() < spec.maxParallel() ? admitted()
                    : new Admission(RunStatus.DROPPED_CONCURRENCY, "parallel: " + active.size() + " runs active",
                            List.of());
            case QUEUED -> active.isEmpty() ? admitted() : new Admission(RunStatus.QUEUED, null, List.of());
            case RESTART -> new Admission(RunStatus.ADMITTED, null, active.stream().map(RunStore.Run::id).toList());
        };
    }

    private static Admission admitted() {
        return new Admission(RunStatus.ADMITTED, null, List.of());
    }

    /**
     * Renders every action's parameters and records them; false when the run has nothing to do
     * (fenced or cancelled while it waited for its turn, or prepared already). A run
     * {@code justAdmitted} by {@link #admit} in this transaction was recorded running there; a
     * queued run whose turn came starts here.
     */
    public boolean prepare(String runId, boolean justAdmitted) {
        Instant now = clock.instant();
        String status = runs.find(runId).map(RunStore.Run::status).orElse(null);
        boolean starts = justAdmitted ? RunStatus.RUNNING.wire().equals(status)
                : RunStatus.QUEUED.wire().equals(status)
                        && runs.transition(runId, RunStatus.QUEUED.wire(), RunStatus.RUNNING.wire(), null, now);
        if (!starts) {
            return false;
        }
        RunStore.Run run = runs.find(runId).orElseThrow();
        AgentSpec spec = agents.spec(run.agentId(), run.revision());
        Map<String, Object> context = templateContext(run);
        List<RunStore.NewAction> actions = new ArrayList<>();
        for (AgentSpec.Action action : spec.actions()) {
            Map<String, Object> params = Templates.renderParams(action.params(), context);
            actions.add(new RunStore.NewAction(action.gadget(), action.command(), StoredJson.write(json, params)));
        }
        runs.insertActions(runId, actions, now);
        return true;
    }

    /**
     * The next step: the first unsettled action while the run is running and within its
     * maxRunSeconds; otherwise the run is done (or out of time, with actions left).
     */
    public Next next(String runId) {
        RunStore.Run run = runs.find(runId).orElseThrow();
        if (!RunStatus.RUNNING.wire().equals(run.status())) {
            return Next.DONE;
        }
        if (unsettled(runs.actions(runId)).isEmpty()) {
            return Next.DONE;
        }
        return clock.instant().isBefore(runDeadline(run)) ? Next.ACTION : Next.TIMED_OUT;
    }

    private static Optional<RunStore.Action> unsettled(List<RunStore.Action> actions) {
        return actions.stream().filter(action -> action.outcome() == null).findFirst();
    }

    /** Asks the kernel now and sends the action if allowed; otherwise settles it at once. */
    public DispatchStep dispatch(String runId) {
        RunStore.Run run = runs.find(runId).orElseThrow();
        Optional<RunStore.Action> next = unsettled(runs.actions(runId));
        if (next.isEmpty()) {
            return DispatchStep.settled();
        }
        RunStore.Action action = next.get();
        int index = action.index();
        if (!RunStatus.RUNNING.wire().equals(run.status())) {
            // fenced or ended meanwhile: none of its remaining actions is sent
            handBackSpeaker(runId, action);
            for (RunStore.Action left : runs.actions(runId)) {
                if (left.outcome() == null) {
                    runs.actionEnded(runId, left.index(), "deny", "denied", "run_" + run.status(), null,
                            clock.instant());
                }
            }
            return DispatchStep.settled();
        }
        if (!clock.instant().isBefore(runDeadline(run))) {
            // woken (a speaker turn) after maxRunSeconds: nothing more leaves; next() says timed_out
            handBackSpeaker(runId, action);
            return DispatchStep.settled();
        }
        Priority priority = run.proactive() ? Priority.PROACTIVE : Priority.EXPLICIT;
        String ticket = null;
        if (CommandKind.of(action.command()) == CommandKind.SOUND) {
            ticket = speakerTicket(runId, index);
            Claim claim = floor.request(action.gadgetId(), ticket, priority, action.startedAt());
            if (claim instanceof Claim.Queued) {
                return new DispatchStep(false, true, null, null, runDeadline(run));
            }
            if (claim instanceof Claim.DroppedStale) {
                dropStale(runId, index);
                return DispatchStep.settled();
            }
        }
        ActionRequest request = new ActionRequest(subject(run), action.gadgetId(), action.command(),
                StoredJson.map(json, action.params()), priority, clock.instant());
        Dispatcher.Dispatch dispatch = dispatcher.send(request, "run", runId);
        if (dispatch instanceof Dispatcher.Sent sent) {
            runs.actionSent(runId, index, sent.invocationId());
            if (ticket != null) {
                floor.playing(sent.invocationId(), action.gadgetId(), ticket);
            }
            Instant answerBy = sent.deadline().plus(ANSWER_GRACE);
            Instant runDeadline = runDeadline(run);
            return new DispatchStep(true, false, sent.invocationId(),
                    answerBy.isBefore(runDeadline) ? answerBy : runDeadline, runDeadline);
        }
        if (ticket != null) {
            floor.release(action.gadgetId(), ticket);
        }
        Dispatcher.NotSent notSent = (Dispatcher.NotSent) dispatch;
        if (notSent.verdict() instanceof Verdict.Gate gate) {
            String gateId = gates.fileForRun(run.ownerId(), run.agentId(), runId, action.gadgetId(), action.command(),
                    request.params(), gate.ruleId());
            runs.actionEnded(runId, index, "gate", "gated", null, StoredJson.write(json, Map.of("gate", gateId)),
                    clock.instant());
            return DispatchStep.settled();
        }
        Outcome outcome = notSent.outcome();
        String code = outcome instanceof Outcome.Denied denied ? denied.reason() : outcome.status();
        runs.actionEnded(runId, index, notSent.verdict().wire(), "denied", code, null, clock.instant());
        gates.refused(run.ownerId(), run.agentId(), runId, action.command(), code);
        if (notSent.verdict() instanceof Verdict.Deny deny && deny.reason().isFence()) {
            runs.end(runId, RunStatus.FENCED.wire(), deny.reason().wire(), clock.instant());
        }
        return DispatchStep.settled();
    }

    /** A sound that will not be sent hands back the speaker turn that may have woken its run. */
    private void handBackSpeaker(String runId, RunStore.Action action) {
        if (CommandKind.of(action.command()) == CommandKind.SOUND) {
            floor.release(action.gadgetId(), speakerTicket(runId, action.index()));
        }
    }

    /** The speaker ticket of one action of one run. */
    public static String speakerTicket(String runId, int index) {
        return "run:" + runId + ":" + index;
    }

    /** A queued sound whose turn came too late (older than the staleness bound): never played late. */
    public void dropStale(String runId, int index) {
        runs.actionEnded(runId, index, "allow", "dropped_stale", null, null, clock.instant());
    }

    /** An invocation's outcome as a run records it: status, error code, result payload (JSON or null). */
    public record Answer(String invocationId, String status, String errorCode, String result) {

        public static Answer of(Outcome outcome) {
            String code = outcome instanceof Outcome.Failed failed ? failed.errorCode() : null;
            com.fasterxml.jackson.databind.JsonNode payload = outcome instanceof Outcome.Completed completed
                    ? completed.payload() : outcome instanceof Outcome.Accepted accepted ? accepted.payload() : null;
            String result = payload == null || payload.isMissingNode() || payload.isNull() ? null : payload.toString();
            return new Answer(outcome.invocationId(), outcome.status(), code, result);
        }
    }

    /**
     * Records the answer to the action the run waits for: {@code answer} when the device's answer
     * woke the run (handed over, not read again), otherwise (its deadline passed) {@code unknown},
     * unless the answer was recorded meanwhile.
     */
    public void settle(String runId, Answer answer) {
        Optional<RunStore.Action> waitingFor = unsettled(runs.actions(runId));
        if (waitingFor.isEmpty() || waitingFor.get().invocationId() == null) {
            return; // settled meanwhile (the run was fenced or ended)
        }
        int index = waitingFor.get().index();
        String invocationId = waitingFor.get().invocationId();
        // the answer handed over counts only for the invocation this wait is for
        Answer outcome = answer != null && invocationId.equals(answer.invocationId()) ? answer
                : Answer.of(dispatcher.expire(invocationId).orElseGet(() -> dispatcher.stored(invocationId)));
        RunStore.Run run = runs.find(runId).orElseThrow();
        gates.autoExecuted(run.ownerId(), run.agentId(), runId, waitingFor.get().command(), null,
                outcome.status());
        runs.actionEnded(runId, index, "allow", outcome.status(), outcome.errorCode(), outcome.result(),
                clock.instant());
        if (!"accepted".equals(outcome.status())) {
            floor.ended(invocationId); // a sound that is not playing on frees the speaker now
        }
    }

    /** maxRunSeconds passed: the run ends failed; whatever was sent stays as the device answers it. */
    public void timedOut(String runId) {
        runs.end(runId, RunStatus.FAILED.wire(), "max_run_seconds", clock.instant());
    }

    /**
     * Ends the run with a status from its actions' outcomes, and hands the turn to the oldest
     * queued run of the agent, if any (returned, so the engine can wake it).
     */
    public Optional<String> finish(String runId) {
        // the agent's row lock, as admission takes it, before this run ends: a run admitted
        // meanwhile either committed as queued before the read below (and gets the turn here) or
        // sees this run ended (and starts). Without it both could miss the other, and that queued
        // run and every one after it waited forever (the fault suite, after a restart's burst)
        agentStore.lock(runs.find(runId).orElseThrow().agentId());
        List<RunStore.Action> actions = runs.actions(runId);
        // a gated action is not a failure: the run did its part, the gate carries the rest
        long good = actions.stream().filter(a -> "completed".equals(a.outcome()) || "accepted".equals(a.outcome())
                || "gated".equals(a.outcome()) || "dropped_stale".equals(a.outcome())).count();
        RunStatus status = actions.isEmpty() || good == actions.size() ? RunStatus.SUCCEEDED
                : good == 0 ? RunStatus.FAILED : RunStatus.PARTIALLY_FAILED;
        runs.end(runId, status.wire(), null, clock.instant());
        RunStore.Run run = runs.find(runId).orElseThrow();
        List<RunStore.Run> active = runs.active(run.agentId());
        if (active.stream().anyMatch(other -> !RunStatus.QUEUED.wire().equals(other.status()))) {
            return Optional.empty(); // another run still goes (admitted before a revision to queued): its finish hands on
        }
        return active.stream().filter(next -> RunStatus.QUEUED.wire().equals(next.status()))
                .map(RunStore.Run::id).findFirst();
    }

    /**
     * Ends a run whose process instance was cancelled because its model was replaced (a platform
     * upgrade): it ends {@code failed}, and whatever it had sent stays as the device answers it.
     */
    public boolean abandon(String runId, String reason) {
        return runs.end(runId, RunStatus.FAILED.wire(), reason, clock.instant());
    }

    /** Ends queued runs of an agent whose policy changed (disabled, revised, deleted). */
    public List<String> fenceQueued(String agentId, String reason) {
        List<String> fenced = new ArrayList<>();
        for (RunStore.Run run : runs.active(agentId)) {
            if (RunStatus.QUEUED.wire().equals(run.status())
                    && runs.end(run.id(), RunStatus.FENCED.wire(), reason, clock.instant())) {
                fenced.add(run.id());
            }
        }
        return fenced;
    }

    /** When the run's maxRunSeconds, counted from its start, are over. */
    private Instant runDeadline(RunStore.Run run) {
        Instant started = run.startedAt() == null ? run.createdAt() : run.startedAt();
        return started.plusSeconds(Math.max(1, agents.spec(run.agentId(), run.revision()).budget().maxRunSeconds()));
    }

    Map<String, Object> templateContext(RunStore.Run run) {
        Map<String, Object> trigger = run.triggerData() == null ? Map.of() : StoredJson.map(json, run.triggerData());
        return TemplateContext.of(trigger, run.id(), run.revision(), run.agentId(),
                agentStore.find(run.agentId()).map(agent -> StoredJson.map(json, agent.state())).orElse(Map.of()));
    }

    private static Subject.AgentRun subject(RunRequest request) {
        return new Subject.AgentRun(request.ownerId(), request.agentId(), request.revision(), request.runId());
    }

    private static Subject.AgentRun subject(RunStore.Run run) {
        return new Subject.AgentRun(run.ownerId(), run.agentId(), run.revision(), run.id());
    }


    private static String decisionReason(RunStatus status) {
        return switch (status) {
            case ADMITTED, QUEUED -> "matched";
            case RATE_LIMITED -> "over_budget";
            case COOLDOWN -> "cooldown";
            case FENCED -> "fenced";
            case DROPPED_CONCURRENCY -> "dropped_concurrency";
            case SKIPPED_OFFLINE -> "gadget_offline";
            default -> status.wire();
        };
    }

}
