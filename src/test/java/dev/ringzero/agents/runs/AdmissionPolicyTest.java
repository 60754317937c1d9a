package dev.ringzero.agents.runs;

import static dev.ringzero.agents.runs.RunFixtures.T0;
import static dev.ringzero.agents.runs.RunFixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.agents.definition.AgentSpec.Concurrency;
import dev.ringzero.kernel.Budget;
import dev.ringzero.kernel.DenyReason;
import dev.ringzero.kernel.Verdict;
import org.junit.jupiter.api.Test;

class AdmissionPolicyTest {

    private static final Verdict ALLOW = new Verdict.Allow();
    private static final Supplier<List<RunStore.Run>> NONE_ACTIVE = List::of;

    private static Supplier<List<RunStore.Run>> active(String... ids) {
        return () -> java.util.Arrays.stream(ids).map(id -> new RunStore.Run(id, RunFixtures.AGENT, RunFixtures.OWNER,
                1, "gadget.event", null, null, true, RunStatus.RUNNING, null, RunFixtures.T0, RunFixtures.T0, null))
                .toList();
    }

    private static Supplier<List<RunStore.Run>> unread() {
        return () -> {
            throw new AssertionError("active runs read although the kernel refused the run");
        };
    }

    @Test
    void aFencingDenialEndsTheRunFencedWithTheReasonCode() {
        AgentRuns.Admission underTest = AdmissionPolicy.decide(new Verdict.Deny(DenyReason.AGENT_DISABLED, "off"),
                spec(), unread(), T0);

        assertThat(underTest).isEqualTo(new AgentRuns.Admission(RunStatus.FENCED, "agent_disabled", List.of()));
    }

    @Test
    void aDenialThatIsNoFenceEndsTheRunDenied() {
        AgentRuns.Admission underTest = AdmissionPolicy.decide(new Verdict.Deny(DenyReason.NOT_ALLOWED, "no"),
                spec(), unread(), T0);

        assertThat(underTest).isEqualTo(new AgentRuns.Admission(RunStatus.DENIED, "not_allowed", List.of()));
    }

    @Test
    void anExhaustedHourlyBudgetRateLimitsTheRunAndSaysWhenItIsEligible() {
        Instant next = Instant.parse("2026-11-29T11:00:00Z");

        AgentRuns.Admission underTest = AdmissionPolicy.decide(new Verdict.OverBudget(Budget.RUNS_PER_HOUR, next),
                spec(), unread(), T0);

        assertThat(underTest.status()).isEqualTo(RunStatus.RATE_LIMITED);
        assertThat(underTest.reason()).isEqualTo("runsPerHour; next eligible at 2026-11-29T11:00:00Z");
    }

    @Test
    void aRunWithinTheCooldownEndsCooldownWithTheBudgetAsReason() {
        AgentRuns.Admission underTest = AdmissionPolicy.decide(
                new Verdict.OverBudget(Budget.COOLDOWN_SECONDS, null), spec(), unread(), T0);

        assertThat(underTest).isEqualTo(new AgentRuns.Admission(RunStatus.COOLDOWN, "cooldownSeconds", List.of()));
    }

    @Test
    void aQueuedAgentsTriggerInTheCooldownCoolsUntilItsNextEligibleTimeWhenThatIsWithinTheWait() {
        Instant eligible = T0.plusSeconds(20);

        AgentRuns.Admission underTest = AdmissionPolicy.decide(new Verdict.OverBudget(Budget.COOLDOWN_SECONDS, eligible),
                waiting(Concurrency.QUEUED, 30), unread(), T0);

        assertThat(underTest).isEqualTo(new AgentRuns.Admission(RunStatus.COOLING,
                "waits out the cooldown until 2026-11-29T10:00:20Z", List.of(), eligible));
        assertThat(AdmissionPolicy.ledgerReason(RunStatus.COOLING)).isEqualTo("matched");
    }

    @Test
    void aCooldownThatEndsAfterTheWaitEndsTheRunCooldownCountedFromItsArrivalNotFromNow() {
        Instant eligible = T0.plusSeconds(31);

        assertThat(AdmissionPolicy.decide(new Verdict.OverBudget(Budget.COOLDOWN_SECONDS, eligible),
                waiting(Concurrency.QUEUED, 30), unread(), T0).status()).isEqualTo(RunStatus.COOLDOWN);
        // woken at T0+25 with another 20 s of cooldown ahead: still bound by the arrival at T0
        assertThat(AdmissionPolicy.decide(new Verdict.OverBudget(Budget.COOLDOWN_SECONDS, T0.plusSeconds(45)),
                waiting(Concurrency.QUEUED, 30), unread(), T0).status()).isEqualTo(RunStatus.COOLDOWN);
        assertThat(AdmissionPolicy.decide(new Verdict.OverBudget(Budget.COOLDOWN_SECONDS, T0.plusSeconds(30)),
                waiting(Concurrency.QUEUED, 30), unread(), T0).status()).isEqualTo(RunStatus.COOLING);
    }

    @Test
    void onlyTheCooldownIsWaitedOutAndOnlyByAQueuedAgentThatAsksToWait() {
        Instant soon = T0.plusSeconds(5);

        assertThat(AdmissionPolicy.decide(new Verdict.OverBudget(Budget.RUNS_PER_HOUR, soon),
                waiting(Concurrency.QUEUED, 30), unread(), T0).status()).isEqualTo(RunStatus.RATE_LIMITED);
        assertThat(AdmissionPolicy.decide(new Verdict.OverBudget(Budget.COOLDOWN_SECONDS, soon),
                waiting(Concurrency.QUEUED, 0), unread(), T0).status()).isEqualTo(RunStatus.COOLDOWN);
        assertThat(AdmissionPolicy.decide(new Verdict.OverBudget(Budget.COOLDOWN_SECONDS, soon),
                waiting(Concurrency.SINGLE, 30), unread(), T0).status()).isEqualTo(RunStatus.COOLDOWN);
    }

    private static AgentSpec waiting(Concurrency concurrency, int cooldownWaitSeconds) {
        AgentSpec base = spec(concurrency, 1, 30);
        return new AgentSpec(base.name(), null, base.gadgets(), base.kind(), base.triggers(), base.actions(), null,
                null, new AgentSpec.Budget(60, 10, 30, 8, 4000, cooldownWaitSeconds), concurrency, 1, true, null, false);
    }

    @Test
    void aGateAtAdmissionEndsTheRunDeniedWithTheVerdict() {
        AgentRuns.Admission underTest = AdmissionPolicy.decide(new Verdict.Gate(null), spec(), unread(), T0);

        assertThat(underTest).isEqualTo(new AgentRuns.Admission(RunStatus.DENIED, "gate", List.of()));
    }

    @Test
    void anAllowedLlmAgentIsAdmittedAsARulesAgentIs() {
        AgentSpec rules = spec();
        AgentSpec llm = new AgentSpec(rules.name(), null, rules.gadgets(), AgentSpec.Kind.LLM, List.of(), List.of(),
                "be nice", null, null, null, 0, true, null, false);

        assertThat(AdmissionPolicy.decide(ALLOW, llm, NONE_ACTIVE, T0).status()).isEqualTo(RunStatus.ADMITTED);
    }

    @Test
    void withoutAModelAnLlmRunEndsFailedSayingWhatIsMissing() {
        AgentRuns.Admission underTest = AdmissionPolicy.unconfigured();

        assertThat(underTest.status()).isEqualTo(RunStatus.FAILED);
        assertThat(underTest.reason()).startsWith("llm_unconfigured").contains("ringzero.llm.base-url");
    }

    @Test
    void singleAdmitsARunOnlyWhileNoOtherIsActive() {
        AgentSpec single = spec(Concurrency.SINGLE, 1, 30);

        assertThat(AdmissionPolicy.decide(ALLOW, single, NONE_ACTIVE, T0))
                .isEqualTo(new AgentRuns.Admission(RunStatus.ADMITTED, null, List.of()));
        assertThat(AdmissionPolicy.decide(ALLOW, single, active("r0"), T0))
                .isEqualTo(new AgentRuns.Admission(RunStatus.DROPPED_CONCURRENCY, "single: run r0 is active",
                        List.of()));
    }

    @Test
    void parallelAdmitsRunsUpToItsMaximum() {
        AgentSpec parallel = spec(Concurrency.PARALLEL, 2, 30);

        assertThat(AdmissionPolicy.decide(ALLOW, parallel, active("r0"), T0).status()).isEqualTo(RunStatus.ADMITTED);
        assertThat(AdmissionPolicy.decide(ALLOW, parallel, active("r0", "r1"), T0))
                .isEqualTo(new AgentRuns.Admission(RunStatus.DROPPED_CONCURRENCY, "parallel: 2 runs active",
                        List.of()));
    }

    @Test
    void queuedQueuesARunBehindAnActiveOneAndAdmitsItWhenNoneIs() {
        AgentSpec queued = spec(Concurrency.QUEUED, 1, 30);

        assertThat(AdmissionPolicy.decide(ALLOW, queued, active("r0"), T0))
                .isEqualTo(new AgentRuns.Admission(RunStatus.QUEUED, null, List.of()));
        assertThat(AdmissionPolicy.decide(ALLOW, queued, NONE_ACTIVE, T0).status()).isEqualTo(RunStatus.ADMITTED);
    }

    @Test
    void restartAdmitsTheRunAndCancelsEveryActiveOne() {
        AgentRuns.Admission underTest = AdmissionPolicy.decide(ALLOW, spec(Concurrency.RESTART, 1, 30),
                active("r0", "r1"), T0);

        assertThat(underTest).isEqualTo(new AgentRuns.Admission(RunStatus.ADMITTED, null, List.of("r0", "r1")));
    }

    @Test
    void theLedgerRecordsAStartedOrQueuedRunAsMatchedAndEveryOtherByItsCause() {
        assertThat(AdmissionPolicy.ledgerReason(RunStatus.ADMITTED)).isEqualTo("matched");
        assertThat(AdmissionPolicy.ledgerReason(RunStatus.QUEUED)).isEqualTo("matched");
        assertThat(AdmissionPolicy.ledgerReason(RunStatus.RATE_LIMITED)).isEqualTo("over_budget");
        assertThat(AdmissionPolicy.ledgerReason(RunStatus.COOLDOWN)).isEqualTo("cooldown");
        assertThat(AdmissionPolicy.ledgerReason(RunStatus.FENCED)).isEqualTo("fenced");
        assertThat(AdmissionPolicy.ledgerReason(RunStatus.DROPPED_CONCURRENCY)).isEqualTo("dropped_concurrency");
        assertThat(AdmissionPolicy.ledgerReason(RunStatus.SKIPPED_OFFLINE)).isEqualTo("gadget_offline");
        assertThat(AdmissionPolicy.ledgerReason(RunStatus.DENIED)).isEqualTo("denied");
    }
}
