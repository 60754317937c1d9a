package dev.ringzero.agents;

import java.time.Instant;
import java.util.Optional;

import dev.ringzero.kernel.BudgetUsage;

/**
 * What an agent's own view needs from its run history, owned here and implemented by the runs
 * package (which builds on agents, never the other way round).
 */
public interface RunRecords {

    /** The agent's latest run as its owner reads it. */
    record LastRun(String id, String status, String reason, Instant createdAt) {
    }

    Optional<LastRun> lastRun(String agentId);

    /** Counted runs in the budget window, for the budget the agent has left. */
    BudgetUsage usage(String agentId, Instant now);
}
