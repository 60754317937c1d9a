package dev.ringzero.agents.runs;

import java.time.Clock;
import java.util.Optional;

/**
 * Settles the action a run waits for (step {@code Task_ActionOutcome}) with the device's answer
 * that woke the run, or, when its deadline woke it instead, with {@code unknown} unless the answer
 * was recorded meanwhile; audits it as a command that ran without a human.
 */
final class RunSettlement {

    private final RunStore runs;
    private final ActionLink link;
    private final GateDesk gates;
    private final SpeakerTurns speaker;
    private final Clock clock;

    RunSettlement(RunStore runs, ActionLink link, GateDesk gates, SpeakerTurns speaker, Clock clock) {
        this.runs = runs;
        this.link = link;
        this.gates = gates;
        this.speaker = speaker;
        this.clock = clock;
    }

    /**
     * Records the answer to the action the run waits for: {@code answer} when the device's answer
     * woke the run (handed over, not read again), otherwise (its deadline passed) {@code unknown},
     * unless the answer was recorded meanwhile.
     */
    void settle(String runId, AgentRuns.Answer answer) {
        Optional<RunStore.Action> waitingFor = RunProgress.unsettled(runs.actions(runId));
        if (waitingFor.isEmpty() || waitingFor.get().invocationId() == null) {
            return; // settled meanwhile (the run was fenced or ended)
        }
        int index = waitingFor.get().index();
        String invocationId = waitingFor.get().invocationId();
        // the answer handed over counts only for the invocation this wait is for
        AgentRuns.Answer outcome = answer != null && invocationId.equals(answer.invocationId()) ? answer
                : AgentRuns.Answer.of(link.afterWait(invocationId));
        runs.actionEnded(runId, index, "allow", outcome.status(), outcome.errorCode(), outcome.result(),
                clock.instant());
        ended(runId, waitingFor.get().command(), invocationId, outcome.status());
    }

    /**
     * Settles a detached command (its run's process ended as it left) with its answer, unless it
     * was settled already: the conditional update decides between the answer and the deadline
     * sweep. Audited like an awaited one. False if nothing was settled here.
     */
    boolean settleUnawaited(String runId, String invocationId, AgentRuns.Answer answer) {
        Optional<RunStore.Action> settled = runs.unawaitedEnded(runId, invocationId, answer.status(),
                answer.errorCode(), answer.result(), clock.instant());
        settled.ifPresent(action -> ended(runId, action.command(), invocationId, answer.status()));
        return settled.isPresent();
    }

    /** A sent command's outcome is recorded: audited as a command that ran without a human; the speaker hears of it. */
    private void ended(String runId, String command, String invocationId, String status) {
        RunStore.Run run = runs.find(runId).orElseThrow();
        gates.autoExecuted(run.ownerId(), run.agentId(), runId, command, null, status);
        speaker.answered(invocationId, status);
    }

    /**
     * A detached command's answer is overdue: {@code unknown} (never retried), unless its answer was
     * recorded meanwhile, which then settles it.
     */
    boolean settleOverdue(String runId, String invocationId) {
        return settleUnawaited(runId, invocationId, AgentRuns.Answer.of(link.afterWait(invocationId)));
    }
}
