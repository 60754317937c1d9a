package dev.ringzero.agents;

import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.kernel.Budget;

/** The kernel's view of a definition's budget (the kernel needs at least one run and one second). */
public final class KernelBudgets {

    private KernelBudgets() {
    }

    public static Budget of(AgentSpec spec) {
        AgentSpec.Budget b = spec.budget();
        return new Budget(Math.max(1, b.runsPerHour()), b.cooldownSeconds(), Math.max(1, b.maxRunSeconds()),
                b.toolCallsPerRun(), b.tokensPerRun());
    }
}
