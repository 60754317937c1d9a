package dev.ringzero.agents.runs;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

import dev.ringzero.agents.AgentStore;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * "Why didn't it run?": every trigger evaluation with a reason code (matched, filtered_out,
 * disabled, over_budget, cooldown, fenced, gadget_offline, dropped_concurrency). Entries older
 * than the retention ({@code ringzero.decisions.retention}, default 7 days) are pruned hourly.
 */
@Component
public class DecisionLedger {

    private final RunStore runs;
    private final Clock clock;
    private final Duration retention;

    DecisionLedger(RunStore runs, Clock clock, @Value("${ringzero.decisions.retention:P7D}") Duration retention) {
        this.runs = runs;
        this.clock = clock;
        this.retention = retention;
    }

    public void record(AgentStore.Agent agent, String eventId, String triggerKind, String reason, String detail,
            String runId) {
        runs.decide(UUID.randomUUID().toString(), agent.id(), agent.ownerId(), eventId, triggerKind, reason, detail,
                runId, clock.instant());
    }

    /** Hourly: old ledger entries, and the budget's minute counters no window reads any more. */
    @Scheduled(fixedDelayString = "PT1H", initialDelayString = "PT1M")
    public void prune() {
        runs.pruneDecisions(clock.instant().minus(retention));
        runs.pruneBudgetMinutes(clock.instant().minus(Duration.ofHours(2)));
    }
}
