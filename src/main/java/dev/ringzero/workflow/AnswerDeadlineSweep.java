package dev.ringzero.workflow;

import java.time.Clock;

import dev.ringzero.agents.runs.AgentRuns;
import dev.ringzero.agents.runs.RunStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The deadline of commands no process waits for ({@code EndEvent_CommandLeft}): one sweep per node,
 * every second, instead of a timer job per command. An overdue command is {@code unknown}, never
 * retried, and its run finishes. Each settles in a transaction of its own behind a conditional
 * update, so the answer arriving at that moment, or another node's sweep, settles it once. It runs
 * whatever {@code ringzero.runs.detach-last-command} says now: commands detached before a restart
 * with the setting turned off are still settled (with none, a sweep is one indexed select).
 */
@Component
class AnswerDeadlineSweep {

    private static final Logger log = LoggerFactory.getLogger(AnswerDeadlineSweep.class);
    private static final int PER_SWEEP = 200;

    private final AgentRuns runs;
    private final QueuedTurns turns;
    private final TransactionTemplate transactions;
    private final Clock clock;

    AnswerDeadlineSweep(AgentRuns runs, QueuedTurns turns, TransactionTemplate transactions, Clock clock) {
        this.runs = runs;
        this.turns = turns;
        this.transactions = transactions;
        this.clock = clock;
    }

    @Scheduled(fixedDelayString = "${ringzero.runs.answer-sweep-every:1000}")
    void sweep() {
        for (RunStore.Unawaited overdue : runs.overdueAnswers(clock.instant(), PER_SWEEP)) {
            try {
                transactions.executeWithoutResult(status -> runs.overdue(overdue.runId(), overdue.invocationId())
                        .ifPresent(turns::turnCame));
            } catch (RuntimeException e) {
                // tried again at the next sweep: the row stays overdue until settled
                log.info("the overdue command {} of run {} was not settled yet: {}", overdue.invocationId(),
                        overdue.runId(), e.toString());
            }
        }
    }
}
