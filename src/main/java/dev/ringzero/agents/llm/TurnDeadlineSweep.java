package dev.ringzero.agents.llm;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The deadline of llm turns ({@code Task_AwaitModelReply}): one sweep per node, every second, instead
 * of a timer job per turn (each had its job written, found and deleted again on every turn). A
 * turn still unanswered at its {@code reply_by} is failed and its run woken (see {@link
 * LlmSessions#endOverdueTurns}); with no session running, a sweep is one indexed select.
 */
@Component
class TurnDeadlineSweep {

    private static final int PER_SWEEP = 200;

    private final LlmSessions sessions;

    TurnDeadlineSweep(LlmSessions sessions) {
        this.sessions = sessions;
    }

    @Scheduled(fixedDelayString = "${ringzero.llm.deadline-sweep-every:1000}")
    void sweep() {
        sessions.endOverdueTurns(PER_SWEEP);
    }
}
