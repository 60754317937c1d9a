package dev.ringzero.kernel;

/**
 * An agent's ceilings, from its definition's {@code budget} block. The constants are the names an
 * {@link Verdict.OverBudget} reports, equal to the definition's field names so people can find them.
 */
public record Budget(int runsPerHour, int cooldownSeconds, int maxRunSeconds, int toolCallsPerRun, int tokensPerRun) {

    public static final String RUNS_PER_HOUR = "runsPerHour";
    public static final String COOLDOWN_SECONDS = "cooldownSeconds";
    public static final String MAX_RUN_SECONDS = "maxRunSeconds";
    public static final String TOOL_CALLS_PER_RUN = "toolCallsPerRun";
    public static final String TOKENS_PER_RUN = "tokensPerRun";

    public Budget {
        if (runsPerHour < 1 || maxRunSeconds < 1) {
            throw new IllegalArgumentException("runsPerHour and maxRunSeconds must be at least 1");
        }
        if (cooldownSeconds < 0 || toolCallsPerRun < 0 || tokensPerRun < 0) {
            throw new IllegalArgumentException("budgets cannot be negative");
        }
    }
}
