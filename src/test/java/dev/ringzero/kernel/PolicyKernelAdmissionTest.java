package dev.ringzero.kernel;

import static dev.ringzero.kernel.KernelFixtures.ALICE;
import static dev.ringzero.kernel.KernelFixtures.NOON;
import static dev.ringzero.kernel.KernelFixtures.denial;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ringzero.kernel.KernelFixtures.AgentStub;
import dev.ringzero.kernel.KernelFixtures.FakeFacts;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link PolicyKernel#admitRun}: a run must still stand before its budget is even considered. */
class PolicyKernelAdmissionTest {

    private static final Budget FIVE_AN_HOUR = new Budget(5, 60, 30, 8, 4000);
    private static final BudgetUsage FULL_HOUR = new BudgetUsage(5, Optional.of(NOON.minus(Duration.ofMinutes(40))),
            Optional.of(NOON.minusSeconds(10)));

    private final AgentStub barker = new AgentStub("barker", ALICE);
    private final PolicyKernel underTest = new PolicyKernel(new FakeFacts().with(barker), TrustRules.NONE,
            TrustHistory.NONE);

    @Test
    void aProactiveRunWithinBudgetIsAdmitted() {
        assertThat(underTest.admitRun(barker.run(), FIVE_AN_HOUR, BudgetUsage.NONE, true, NOON)).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void aProactiveRunOverBudgetIsHeldBackUntilTheWindowFrees() {
        assertThat(underTest.admitRun(barker.run(), FIVE_AN_HOUR, FULL_HOUR, true, NOON))
                .isEqualTo(new Verdict.OverBudget(Budget.RUNS_PER_HOUR, NOON.plus(Duration.ofMinutes(20))));
    }

    @Test
    void aRunAPersonAskedForIsAdmittedOverBudget() {
        assertThat(underTest.admitRun(barker.run(), FIVE_AN_HOUR, FULL_HOUR, false, NOON)).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void aDisabledAgentsTriggerIsFencedNotRateLimited() {
        barker.enabled = false;

        assertThat(denial(underTest.admitRun(barker.run(), FIVE_AN_HOUR, FULL_HOUR, true, NOON)))
                .isEqualTo(DenyReason.AGENT_DISABLED);
    }

    @Test
    void aRunOfAnOldRevisionIsFencedEvenWhenAPersonAskedForIt() {
        Subject.AgentRun oldRun = barker.run();
        barker.revision++;

        assertThat(denial(underTest.admitRun(oldRun, FIVE_AN_HOUR, BudgetUsage.NONE, false, NOON)))
                .isEqualTo(DenyReason.REVISION_STALE);
    }

    @Test
    void anUnknownAgentIsNotAdmitted() {
        assertThat(denial(underTest.admitRun(new Subject.AgentRun(ALICE, "ghost", 1, "r"), FIVE_AN_HOUR,
                BudgetUsage.NONE, false, NOON))).isEqualTo(DenyReason.AGENT_UNKNOWN);
    }
}
