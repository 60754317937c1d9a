package dev.ringzero.workflow;

import java.time.Clock;
import java.time.Instant;

import dev.ringzero.agents.runs.AgentRuns;
import dev.ringzero.agents.runs.RunStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The deadline of sent commands: one sweep per node, every second, instead of a timer job per
 * command.
 *
 * <ul>
 * <li>A command no process waits for ({@code EndEvent_CommandLeft}) whose answer is overdue is
 * {@code unknown}, never retried, and its run finishes. It runs whatever
 * {@code ringzero.runs.detach-last-command} says now: commands detached before a restart with the
 * setting turned off are still settled.</li>
 * <li>A command a process waits for ({@code Task_AwaitLinkResult}) whose answer is overdue has its wait
 * woken with no answer, and the process's step records it ({@link RunAnswerWakeups#deadlinePassed}).
 * A suspended instance is not woken: its command stays due, tried again every few seconds, and the
 * wait is woken once the instance is active again.</li>
 * </ul>
 * Each settles in a transaction of its own behind a conditional update or a lock on the action's
 * row ({@link AgentRuns#waitFor}), so the answer arriving at that moment, or another node's
 * sweep, settles it once. With
 * nothing sent, a sweep is two indexed selects.
 */
@Component
class AnswerDeadlineSweep {

    private static final Logger log = LoggerFactory.getLogger(AnswerDeadlineSweep.class);
    private static final int PER_SWEEP = 200;

    private final AgentRuns runs;
    private final QueuedTurns turns;
    private final RunAnswerWakeups waits;
    private final TransactionTemplate transactions;
    private final Clock clock;

    AnswerDeadlineSweep(AgentRuns runs, QueuedTurns turns, RunAnswerWakeups waits, TransactionTemplate transactions,
            Clock clock) {
        this.runs = runs;
        this.turns = turns;
        this.waits = waits;
        this.transactions = transactions;
        this.clock = clock;
    }

    @Scheduled(fixedDelayString = "${ringzero.runs.answer-sweep-every:1000}")
    void sweep() {
        Instant now = clock.instant();
        for (RunStore.Overdue overdue : runs.overdueAnswers(now, PER_SWEEP)) {
            settle(overdue, () -> runs.overdue(overdue.runId(), overdue.invocationId()).ifPresent(turns::turnCame));
        }
        for (RunStore.Overdue overdue : runs.overdueAwaited(now, PER_SWEEP)) {
            settle(overdue, () -> {
                switch (waits.deadlinePassed(overdue.runId(), overdue.invocationId())) {
                    case WOKEN -> { } // its step settled the action, which cleared the deadline
                    case SUSPENDED -> runs.awaitedBy(overdue.runId(), overdue.invocationId(),
                            clock.instant().plus(RunStore.SUSPENDED_LOOK_AGAIN));
                    case NONE -> runs.awaitedBy(overdue.runId(), overdue.invocationId(), null);
                }
            });
        }
    }

    /**
     * One overdue command, in a transaction of its own. If it fails (an answer settled or woke the
     * same command at that moment, or the step failed), the row stays overdue and the next sweep
     * tries again, when the record says whether the action is settled.
     */
    private void settle(RunStore.Overdue overdue, Runnable step) {
        try {
            transactions.executeWithoutResult(status -> step.run());
        } catch (RuntimeException e) {
            log.info("the overdue command {} of run {} was not settled yet: {}", overdue.invocationId(),
                    overdue.runId(), e.toString());
        }
    }
}
