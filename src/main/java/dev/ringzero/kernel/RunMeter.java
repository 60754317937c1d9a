package dev.ringzero.kernel;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Meters one run against its per-run ceilings: tool calls, model tokens and wall time. Every charge is
 * recorded (what was spent was spent), so once a run goes over it stays over and the executor ends it.
 * Thread-safe, for runs whose tool calls overlap.
 */
public final class RunMeter {

    private final Budget budget;
    private int toolCalls;
    private int tokens;

    public RunMeter(Budget budget) {
        this.budget = Objects.requireNonNull(budget, "budget");
    }

    /**
     * Records usage and answers whether the run is still within budget: {@code toolCallsPerRun} is
     * checked before {@code tokensPerRun}; reaching a ceiling exactly is still within it.
     */
    public synchronized Verdict charge(int toolCalls, int tokens) {
        if (toolCalls < 0 || tokens < 0) {
            throw new IllegalArgumentException("a charge cannot be negative");
        }
        this.toolCalls = Math.addExact(this.toolCalls, toolCalls);
        this.tokens = Math.addExact(this.tokens, tokens);
        if (this.toolCalls > budget.toolCallsPerRun()) {
            return new Verdict.OverBudget(Budget.TOOL_CALLS_PER_RUN, null);
        }
        if (this.tokens > budget.tokensPerRun()) {
            return new Verdict.OverBudget(Budget.TOKENS_PER_RUN, null);
        }
        return Verdict.ALLOW;
    }

    /** Time left of {@code maxRunSeconds} for a run started at {@code start}; zero, never negative, once up. */
    public Duration remaining(Instant start, Instant now) {
        Duration left = Duration.between(now, deadline(start));
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** The moment a run started at {@code start} must be over. */
    public Instant deadline(Instant start) {
        return start.plusSeconds(budget.maxRunSeconds());
    }

    /** Allow while time remains; over {@code maxRunSeconds} from the deadline on. */
    public Verdict checkTime(Instant start, Instant now) {
        return remaining(start, now).isZero()
                ? new Verdict.OverBudget(Budget.MAX_RUN_SECONDS, null)
                : Verdict.ALLOW;
    }

    public synchronized int toolCalls() {
        return toolCalls;
    }

    public synchronized int tokens() {
        return tokens;
    }
}
