package dev.ringzero.agents.definition;

/**
 * The platform's ceilings on what a definition may ask for. A definition above any of them is refused
 * rather than clamped, so an author never believes an agent runs more often than it will.
 *
 * @param maxRunsPerHour      highest {@code budget.runsPerHour}
 * @param maxCooldownSeconds  highest {@code budget.cooldownSeconds}
 * @param maxRunSeconds       highest {@code budget.maxRunSeconds}
 * @param maxToolCallsPerRun  highest {@code budget.toolCallsPerRun}
 * @param maxTokensPerRun     highest {@code budget.tokensPerRun}
 * @param maxStateBytes       largest {@code state}, counted as bytes of its UTF-8 JSON
 */
public record DefinitionLimits(
        int maxRunsPerHour,
        int maxCooldownSeconds,
        int maxRunSeconds,
        int maxToolCallsPerRun,
        int maxTokensPerRun,
        int maxStateBytes) {

    public DefinitionLimits {
        requireNonNegative("maxRunsPerHour", maxRunsPerHour);
        requireNonNegative("maxCooldownSeconds", maxCooldownSeconds);
        requireNonNegative("maxRunSeconds", maxRunSeconds);
        requireNonNegative("maxToolCallsPerRun", maxToolCallsPerRun);
        requireNonNegative("maxTokensPerRun", maxTokensPerRun);
        requireNonNegative("maxStateBytes", maxStateBytes);
    }

    /** The limits in docs/contracts.md: 3600 runs an hour, a day of cooldown, ten minutes a run, 64 KiB of state. */
    public static DefinitionLimits defaults() {
        return new DefinitionLimits(3600, 86_400, 600, 64, 100_000, 64 * 1024);
    }

    private static void requireNonNegative(String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative: " + value);
        }
    }
}
