package dev.ringzero.agents.runs;

import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.kernel.Budget;
import dev.ringzero.kernel.Verdict;

/**
 * Admission's decision, given the kernel's verdict on standing and budgets: the status a run
 * goes on with (or ends with), by the agent's concurrency mode, and the reason code the decision
 * ledger records for it.
 */
final class AdmissionPolicy {

    private AdmissionPolicy() {
    }

    /**
     * The run's admission. {@code active} (the agent's runs holding a slot) is read only when the
     * kernel allowed the run: only the concurrency mode needs it. {@code arrivedAt} is when the
     * run's trigger arrived: a queued agent's trigger may wait out a cooldown until
     * {@code arrivedAt + cooldownWaitSeconds}, not longer, however often it is woken.
     */
    static AgentRuns.Admission decide(Verdict verdict, AgentSpec spec, Supplier<List<RunStore.Run>> active,
            Instant arrivedAt) {
        if (verdict instanceof Verdict.Deny deny) {
            return ends(deny.reason().isFence() ? RunStatus.FENCED : RunStatus.DENIED, deny.reason().wire());
        }
        if (verdict instanceof Verdict.OverBudget over && waitsOut(over, spec, arrivedAt)) {
            return new AgentRuns.Admission(RunStatus.COOLING, "waits out the cooldown until " + over.nextEligibleAt(),
                    List.of(), over.nextEligibleAt());
        }
        if (verdict instanceof Verdict.OverBudget over) {
            return ends(Budget.COOLDOWN_SECONDS.equals(over.budget()) ? RunStatus.COOLDOWN : RunStatus.RATE_LIMITED,
                    over.budget() + (over.nextEligibleAt() == null ? "" : "; next eligible at " + over.nextEligibleAt()));
        }
        if (!(verdict instanceof Verdict.Allow)) {
            return ends(RunStatus.DENIED, verdict.wire());
        }
        List<RunStore.Run> running = active.get();
        return switch (spec.concurrency()) {
            case SINGLE -> running.isEmpty() ? admitted()
                    : ends(RunStatus.DROPPED_CONCURRENCY, "single: run " + running.get(0).id() + " is active");
            case PARALLEL -> running.size() < spec.maxParallel() ? admitted()
                    : ends(RunStatus.DROPPED_CONCURRENCY, "parallel: " + running.size() + " runs active");
            case QUEUED -> running.isEmpty() ? admitted() : ends(RunStatus.QUEUED, null);
            case RESTART -> new AgentRuns.Admission(RunStatus.ADMITTED, null,
                    running.stream().map(RunStore.Run::id).toList());
        };
    }

    /** A cooldown a queued agent's trigger may wait out: it ends within the definition's bound. */
    private static boolean waitsOut(Verdict.OverBudget over, AgentSpec spec, Instant arrivedAt) {
        int bound = spec.budget().cooldownWaitSeconds();
        return Budget.COOLDOWN_SECONDS.equals(over.budget()) && spec.concurrency() == AgentSpec.Concurrency.QUEUED
                && bound > 0 && over.nextEligibleAt() != null
                && !over.nextEligibleAt().isAfter(arrivedAt.plusSeconds(bound));
    }

    /** The decision ledger's reason code for an admission's status. */
    static String ledgerReason(RunStatus status) {
        return switch (status) {
            // a cooling run will run once the cooldown is over (its detail says when): matched
            case ADMITTED, QUEUED, COOLING -> "matched";
            case RATE_LIMITED -> "over_budget";
            case COOLDOWN -> "cooldown";
            case FENCED -> "fenced";
            case DROPPED_CONCURRENCY -> "dropped_concurrency";
            case SKIPPED_OFFLINE -> "gadget_offline";
            default -> status.wire();
        };
    }

    /** An llm run with no model configured: it ends at once, saying what is missing. */
    static AgentRuns.Admission unconfigured() {
        return ends(RunStatus.FAILED, "llm_unconfigured: no model is configured (ringzero.llm.base-url, "
                + "ringzero.llm.model)");
    }

    private static AgentRuns.Admission admitted() {
        return ends(RunStatus.ADMITTED, null);
    }

    private static AgentRuns.Admission ends(RunStatus status, String reason) {
        return new AgentRuns.Admission(status, reason, List.of());
    }
}
