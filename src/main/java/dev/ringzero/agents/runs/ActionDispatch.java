package dev.ringzero.agents.runs;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.StoredJson;
import dev.ringzero.dispatch.Dispatcher;
import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.Subject;

/**
 * Dispatches a run's next action (step {@code Task_DispatchAction}): nothing leaves a run that is
 * no longer running or out of time; a platform action ({@link PlatformActions}) is settled here; a
 * command after a state write is rendered again from the state as it is now; a sound first takes
 * its speaker turn; then the kernel is asked
 * now through the dispatcher, and the action is either sent (the run waits for the answer) or
 * settled at once by {@link UnsentActions}.
 */
final class ActionDispatch {

    /** A margin past the device's deadline, so an answer sent at the last moment still counts. */
    static final Duration ANSWER_GRACE = Duration.ofSeconds(1);

    private final RunStore runs;
    private final RunProgress progress;
    private final SpeakerTurns speaker;
    private final ActionLink link;
    private final UnsentActions unsent;
    private final PlatformActions platform;
    private final RunPreparation preparation;
    private final ObjectMapper json;
    private final Clock clock;
    /** Whether a rules run's last command ends the run's process as it leaves (see {@link #detaches}). */
    private final boolean detachLast;

    ActionDispatch(RunStore runs, RunProgress progress, SpeakerTurns speaker, ActionLink link, UnsentActions unsent,
            PlatformActions platform, RunPreparation preparation, ObjectMapper json, Clock clock, boolean detachLast) {
        this.detachLast = detachLast;
        this.runs = runs;
        this.progress = progress;
        this.speaker = speaker;
        this.link = link;
        this.unsent = unsent;
        this.platform = platform;
        this.preparation = preparation;
        this.json = json;
        this.clock = clock;
    }

    /**
     * Asks the kernel now and sends the action if allowed; otherwise settles it at once. A command
     * awaited records {@code waitExecution}, the engine execution that will wait for its answer.
     */
    AgentRuns.DispatchStep dispatch(String runId, String waitExecution) {
        RunStore.Run run = runs.find(runId).orElseThrow();
        Optional<RunStore.Action> next = RunProgress.unsettled(runs.actions(runId));
        if (next.isEmpty()) {
            return AgentRuns.DispatchStep.settled();
        }
        RunStore.Action action = next.get();
        if (run.status() != RunStatus.RUNNING) {
            // fenced or ended meanwhile: none of its remaining actions is sent
            speaker.handBack(runId, action);
            unsent.denyRemaining(run);
            return AgentRuns.DispatchStep.settled();
        }
        if (progress.overtime(run)) {
            // woken (a speaker turn) after maxRunSeconds: nothing more leaves; next() says timed_out
            speaker.handBack(runId, action);
            return AgentRuns.DispatchStep.settled();
        }
        // after a state write, {{state.…}} must read what was written, whatever the action
        action = preparation.renderAgain(run, action);
        if (action.gadgetId() == null) {
            // a platform action (a state write, a ring-3 intent): settled here, nothing to wait for
            platform.run(run, action);
            return AgentRuns.DispatchStep.settled();
        }
        Priority priority = run.proactive() ? Priority.PROACTIVE : Priority.EXPLICIT;
        SpeakerTurns.Turn turn = speaker.take(runId, action, priority);
        if (turn instanceof SpeakerTurns.Waits) {
            return new AgentRuns.DispatchStep(false, true, null, null, progress.deadline(run));
        }
        if (turn instanceof SpeakerTurns.Stale) {
            speaker.dropStale(runId, action.index());
            return AgentRuns.DispatchStep.settled();
        }
        ActionRequest request = new ActionRequest(
                new Subject.AgentRun(run.ownerId(), run.agentId(), run.revision(), run.id()), action.gadgetId(),
                action.command(), StoredJson.map(json, action.params()), priority, clock.instant());
        Dispatcher.Dispatch dispatch = link.send(request, runId);
        if (dispatch instanceof Dispatcher.Sent sent) {
            Instant runDeadline = progress.deadline(run);
            Instant answerBy = answerDeadline(sent.deadline(), runDeadline);
            boolean detached = detaches(run, action);
            runs.actionSent(runId, action.index(), sent.invocationId(), answerBy, detached, waitExecution);
            speaker.sent(sent.invocationId(), action, turn);
            return new AgentRuns.DispatchStep(true, false, sent.invocationId(), answerBy, runDeadline, detached);
        }
        speaker.notSent(action, turn);
        unsent.settle(run, action, request, (Dispatcher.NotSent) dispatch);
        return AgentRuns.DispatchStep.settled();
    }

    /**
     * Whether nothing after this command depends on its answer, so the run's process instance ends
     * as it leaves and the answer (or the deadline sweep) settles the record: the last action of a
     * rules run. An llm session reads every answer (its model's next turn), and a multi-step rules
     * run's next action waits for this one; both keep their wait.
     */
    private boolean detaches(RunStore.Run run, RunStore.Action action) {
        return detachLast && progress.kind(run) == dev.ringzero.agents.definition.AgentSpec.Kind.RULES
                && runs.actions(run.id()).stream().noneMatch(other -> other.index() > action.index());
    }

    /** How long a run waits for a sent action's answer: the device's deadline and a grace, within the run's. */
    static Instant answerDeadline(Instant deviceDeadline, Instant runDeadline) {
        Instant answerBy = deviceDeadline.plus(ANSWER_GRACE);
        return answerBy.isBefore(runDeadline) ? answerBy : runDeadline;
    }
}
