package dev.ringzero.agents.runs;

import java.time.Instant;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.AgentStore;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.dispatch.Dispatcher;
import dev.ringzero.dispatch.Outcome;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.policy.SpeakerFloor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * What an agent run does at each step of {@code processes/agent-run.bpmn}, as the workflow's
 * delegates call it. The process carries the waiting; the decisions and the records live in the
 * parts this facade hands each step to: {@link RunAdmission} (with {@link AdmissionPolicy}),
 * {@link RunPreparation}, {@link RunProgress}, {@link ActionDispatch} (with {@link SpeakerTurns}
 * and {@link UnsentActions}), {@link RunSettlement} and {@link RunEnding}.
 */
@Service
public class AgentRuns {

    /**
     * Admission's answer: the status to go on with, whether queued runs must be cancelled, and for
     * a {@code cooling} run when it is eligible again (else null).
     */
    public record Admission(RunStatus status, String reason, List<String> cancelRuns, Instant eligibleAt) {

        public Admission(RunStatus status, String reason, List<String> cancelRuns) {
            this(status, reason, cancelRuns, null);
        }

        /** The run counts against its agent's budgets from now: it runs, or waits for its turn. */
        public boolean counted() {
            return status == RunStatus.ADMITTED || status == RunStatus.QUEUED;
        }

        /** The run ends here, never to run: neither counted nor cooling. */
        public boolean ends() {
            return !counted() && status != RunStatus.COOLING;
        }

        /**
         * The status the run's row takes: an admitted run starts in the transaction that admits it
         * (prepare is its next step), so it is recorded running at once; nobody could see it admitted.
         */
        RunStatus recorded() {
            return status == RunStatus.ADMITTED ? RunStatus.RUNNING : status;
        }
    }

    /**
     * What dispatching one action did: sent (wait for the answer until {@code answerDeadline}, or,
     * {@code detached}, end the run's process and leave the answer to the record), waiting for the
     * gadget's speaker (at most until {@code runDeadline}), or settled now.
     */
    public record DispatchStep(boolean sent, boolean waiting, String invocationId, Instant answerDeadline,
            Instant runDeadline, boolean detached) {

        public DispatchStep(boolean sent, boolean waiting, String invocationId, Instant answerDeadline,
                Instant runDeadline) {
            this(sent, waiting, invocationId, answerDeadline, runDeadline, false);
        }

        static DispatchStep settled() {
            return new DispatchStep(false, false, null, null, null);
        }
    }

    /** What a run does after a step: dispatch its next unsettled action, ask its model, time out, or finish. */
    public enum Next {
        ACTION("action"), MODEL("model"), TIMED_OUT("timed_out"), DONE("done");

        private final String wire;

        Next(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    /** An invocation's outcome as a run records it: status, error code, result payload (JSON or null). */
    public record Answer(String invocationId, String status, String errorCode, String result) {

        public static Answer of(Outcome outcome) {
            String code = outcome instanceof Outcome.Failed failed ? failed.errorCode() : null;
            JsonNode payload = outcome instanceof Outcome.Completed completed ? completed.payload()
                    : outcome instanceof Outcome.Accepted accepted ? accepted.payload() : null;
            String result = payload == null || payload.isMissingNode() || payload.isNull() ? null : payload.toString();
            return new Answer(outcome.invocationId(), outcome.status(), code, result);
        }
    }

    private final RunStore runs;
    private final RunAdmission admission;
    private final RunPreparation preparation;
    private final RunProgress progress;
    private final SpeakerTurns speaker;
    private final ActionDispatch dispatch;
    private final RunSettlement settlement;
    private final RunEnding ending;

    AgentRuns(RunStore runs, AgentStore agentStore, AgentService agents, PolicyKernel kernel, Dispatcher dispatcher,
            GateDesk gates, SpeakerFloor floor, ObjectProvider<ModelSessions> sessions,
            dev.ringzero.agents.definition.DefinitionLimits limits, ObjectMapper json, Clock clock,
            @org.springframework.beans.factory.annotation.Value("${ringzero.runs.detach-last-command:true}")
            boolean detachLast) {
        // the llm runtime is optional (and itself builds on runs): read it when a run needs it
        ModelSessions model = new LazySessions(sessions);
        this.runs = runs;
        RunAgents runAgents = RunAgents.of(agentStore, agents, json);
        ActionLink link = ActionLink.of(dispatcher);
        this.admission = new RunAdmission(runs, runAgents, kernel, model::configured, clock);
        this.preparation = new RunPreparation(runs, runAgents, json, clock);
        this.progress = new RunProgress(runs, runAgents, model, clock);
        this.speaker = new SpeakerTurns(Speakers.of(floor), runs, clock);
        this.dispatch = new ActionDispatch(runs, progress, speaker, link, new UnsentActions(runs, gates, json, clock),
                new PlatformActions(runs, runAgents, kernel, gates, limits.maxStateBytes(), json, clock), preparation,
                json, clock, detachLast);
        this.settlement = new RunSettlement(runs, link, gates, speaker, clock);
        this.ending = new RunEnding(runs, runAgents, clock);
    }

    /** See {@link RunAdmission#admit}. */
    public Admission admit(RunRequest request) {
        return admission.admit(request);
    }

    /** See {@link RunAdmission#readmit}. */
    public Admission readmit(String runId) {
        return admission.readmit(runId);
    }

    /** See {@link RunPreparation#prepare}. */
    public boolean prepare(String runId, boolean justAdmitted) {
        return preparation.prepare(runId, justAdmitted);
    }

    /** See {@link RunProgress#next}. */
    public Next next(String runId) {
        return progress.next(runId);
    }

    /** When the run's maxRunSeconds, counted from its start, are over. */
    public Instant deadline(String runId) {
        return progress.deadline(runs.find(runId).orElseThrow());
    }

    /** See {@link ActionDispatch#dispatch}. */
    public DispatchStep dispatch(String runId, String waitExecution) {
        return dispatch.dispatch(runId, waitExecution);
    }

    /** See {@link RunStore#waitFor}. */
    public Optional<String> waitFor(String runId, String invocationId) {
        return runs.waitFor(runId, invocationId);
    }

    /** Whether the run is an llm session (its agent's revision is of kind {@code llm}); false if it is gone. */
    public boolean isSession(String runId) {
        return runs.find(runId).map(run -> progress.kind(run) == AgentSpec.Kind.LLM).orElse(false);
    }

    /** The speaker ticket of one action of one run. */
    public static String speakerTicket(String runId, int index) {
        return SpeakerTurns.ticket(runId, index);
    }

    /** See {@link SpeakerTurns#dropStale}. */
    public void dropStale(String runId, int index) {
        speaker.dropStale(runId, index);
    }

    /** See {@link RunSettlement#settle}. */
    public void settle(String runId, Answer answer) {
        settlement.settle(runId, answer);
    }

    /**
     * What an answer did to the record of a detached command: settled it and finished its run
     * (with the queued run whose turn it is now, if any), or nothing, because the command was not
     * detached (a process waits for it) or was settled already.
     */
    public record DetachedAnswer(boolean settled, Optional<String> nextTurn) {
        public static final DetachedAnswer NOT_DETACHED = new DetachedAnswer(false, Optional.empty());
    }

    /**
     * The answer to a command no process waits for (its run's instance ended as it left): settles
     * the action and finishes the run. Asked first for every answer: the record alone (a
     * conditional update) tells a detached command from an awaited one.
     */
    public DetachedAnswer answeredUnawaited(String runId, String invocationId, Answer answer) {
        return settlement.settleUnawaited(runId, invocationId, answer)
                ? new DetachedAnswer(true, ending.finish(runId)) : DetachedAnswer.NOT_DETACHED;
    }

    /** Detached commands whose answer is overdue at {@code now}, oldest first (see {@link #overdue}). */
    public List<RunStore.Overdue> overdueAnswers(Instant now, int limit) {
        return runs.overdue(now, limit);
    }

    /** Commands a process waits for whose answer is overdue at {@code now} (the sweep wakes their waits). */
    public List<RunStore.Overdue> overdueAwaited(Instant now, int limit) {
        return runs.overdueAwaited(now, limit);
    }

    /**
     * An overdue awaited command's deadline moves to {@code by}, to be swept again then (its wait
     * could not be woken now); null once no wait is left to wake.
     */
    public void awaitedBy(String runId, String invocationId, Instant by) {
        runs.awaitedBy(runId, invocationId, by);
    }

    /**
     * A detached command's answer is overdue: it is {@code unknown} (never retried) and its run
     * finishes; returns the queued run whose turn it is now, as {@link #answeredUnawaited} does.
     */
    public Optional<String> overdue(String runId, String invocationId) {
        return settlement.settleOverdue(runId, invocationId) ? ending.finish(runId) : Optional.empty();
    }

    /** See {@link RunEnding#timedOut}. */
    public void timedOut(String runId) {
        ending.timedOut(runId);
    }

    /** See {@link RunEnding#finish}. */
    public Optional<String> finish(String runId) {
        return ending.finish(runId);
    }

    /** See {@link RunEnding#abandon}. */
    public boolean abandon(String runId, String reason) {
        return ending.abandon(runId, reason);
    }

    /** See {@link RunEnding#fenceQueued}. */
    public List<String> fenceQueued(String agentId, String reason) {
        return ending.fenceQueued(agentId, reason);
    }

    /** The llm runtime if one is built, else {@link ModelSessions#NONE}; looked up at first use. */
    private static final class LazySessions implements ModelSessions {
        private final ObjectProvider<ModelSessions> provider;
        /** Found once (each lookup resolved the bean anew: about 1 % of an llm session's CPU). */
        private volatile ModelSessions found;

        LazySessions(ObjectProvider<ModelSessions> provider) {
            this.provider = provider;
        }

        private ModelSessions sessions() {
            ModelSessions sessions = found;
            if (sessions == null) {
                sessions = provider.getIfAvailable(() -> NONE);
                found = sessions;
            }
            return sessions;
        }

        @Override
        public boolean configured() {
            return sessions().configured();
        }

        @Override
        public boolean wantsTurn(RunStore.Run run) {
            return sessions().wantsTurn(run);
        }

        @Override
        public int tokensSpent(String runId) {
            return sessions().tokensSpent(runId);
        }

        @Override
        public Optional<Object> transcript(String runId) {
            return sessions().transcript(runId);
        }
    }
}
