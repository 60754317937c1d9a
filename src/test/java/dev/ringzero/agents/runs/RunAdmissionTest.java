package dev.ringzero.agents.runs;

import static dev.ringzero.agents.runs.RunFixtures.AGENT;
import static dev.ringzero.agents.runs.RunFixtures.OWNER;
import static dev.ringzero.agents.runs.RunFixtures.T0;
import static dev.ringzero.agents.runs.RunFixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.Set;

import dev.ringzero.agents.definition.AgentSpec.Concurrency;
import dev.ringzero.kernel.AgentFacts;
import dev.ringzero.kernel.PolicyFacts;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.kernel.TrustHistory;
import dev.ringzero.kernel.TrustRules;
import dev.ringzero.support.MovableClock;
import org.junit.jupiter.api.Test;

class RunAdmissionTest {

    private final RunStore runs = RunFixtures.store();
    private final RunFixtures.FakeAgents agents = new RunFixtures.FakeAgents().with(AGENT, spec());
    private boolean enabled = true;
    private int currentRevision = 1;
    private final PolicyFacts facts = new PolicyFacts() {
        @Override
        public Optional<dev.ringzero.kernel.GadgetFacts> gadget(String gadgetId) {
            return Optional.empty();
        }

        @Override
        public Optional<AgentFacts> agent(String agentId) {
            return Optional.of(new AgentFacts(agentId, OWNER, enabled, currentRevision, Set.of(), Set.of(), Set.of(),
                    false));
        }
    };
    private boolean modelConfigured = true;
    private final RunAdmission underTest = new RunAdmission(runs, agents,
            new PolicyKernel(facts, TrustRules.NONE, TrustHistory.NONE), () -> modelConfigured,
            new MovableClock(T0));

    private static RunRequest request(String runId, String triggerKind) {
        return new RunRequest(runId, AGENT, OWNER, 1, triggerKind, "{}", "event-" + runId,
                !"invoke".equals(triggerKind));
    }

    @Test
    void anAdmittedRunIsRecordedRunningAndCountedUnderTheAgentsLock() {
        AgentRuns.Admission admission = underTest.admit(request("r1", "gadget.event"));

        assertThat(admission.status()).isEqualTo(RunStatus.ADMITTED);
        assertThat(agents.locked).containsExactly(AGENT);
        RunStore.Run run = runs.find("r1").orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
        assertThat(run.startedAt()).isEqualTo(T0);
        assertThat(run.endedAt()).isNull();
        assertThat(runs.usage(AGENT, T0).runsInLastHour()).isEqualTo(1);
        assertThat(runs.decisions(AGENT, 10)).singleElement()
                .satisfies(decision -> {
                    assertThat(decision.reason()).isEqualTo("matched");
                    assertThat(decision.runId()).isEqualTo("r1");
                    assertThat(decision.eventId()).isEqualTo("event-r1");
                });
    }

    @Test
    void anLlmRunWithoutAModelEndsFailedAndRulesRunsAreUntouched() {
        modelConfigured = false;
        var rules = spec();
        agents.with("llm-agent", new dev.ringzero.agents.definition.AgentSpec(rules.name(), null, rules.gadgets(),
                dev.ringzero.agents.definition.AgentSpec.Kind.LLM, rules.triggers(), java.util.List.of(), "be brief",
                null, null, null, 0, true, null, false));

        AgentRuns.Admission llm = underTest.admit(new RunRequest("r1", "llm-agent", OWNER, 1, "invoke", "{}", null,
                false));
        AgentRuns.Admission plain = underTest.admit(request("r2", "gadget.event"));

        assertThat(llm.status()).isEqualTo(RunStatus.FAILED);
        assertThat(runs.find("r1").orElseThrow().reason()).startsWith("llm_unconfigured");
        assertThat(plain.status()).isEqualTo(RunStatus.ADMITTED);
    }

    @Test
    void aRunRefusedByTheKernelIsRecordedEndedUncountedAndLedgered() {
        enabled = false;

        AgentRuns.Admission admission = underTest.admit(request("r1", "gadget.event"));

        assertThat(admission.status()).isEqualTo(RunStatus.FENCED);
        RunStore.Run run = runs.find("r1").orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.FENCED);
        assertThat(run.reason()).isEqualTo("agent_disabled");
        assertThat(run.startedAt()).isNull();
        assertThat(run.endedAt()).isEqualTo(T0);
        assertThat(runs.usage(AGENT, T0).runsInLastHour()).isZero();
        assertThat(runs.decisions(AGENT, 10)).extracting(RunStore.Decision::reason).containsExactly("fenced");
    }

    @Test
    void aQueuedRunIsRecordedQueuedAndCountedButNotStarted() {
        agents.with(AGENT, spec(Concurrency.QUEUED, 1, 30));
        underTest.admit(request("r1", "gadget.event"));

        AgentRuns.Admission admission = underTest.admit(request("r2", "gadget.event"));

        assertThat(admission.status()).isEqualTo(RunStatus.QUEUED);
        RunStore.Run run = runs.find("r2").orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.QUEUED);
        assertThat(run.startedAt()).isNull();
        assertThat(run.endedAt()).isNull();
        assertThat(runs.usage(AGENT, T0).runsInLastHour()).isEqualTo(2);
    }

    @Test
    void aQueuedRunWaitsOnlyBehindRunsThatHandTheTurnOn() {
        underTest.admit(request("r1", "gadget.event")); // revision 1, single: its finish hands nothing on
        agents.revised(AGENT, 2, spec(Concurrency.QUEUED, 1, 30));
        currentRevision = 2;

        AgentRuns.Admission second = underTest.admit(new RunRequest("r2", AGENT, OWNER, 2, "gadget.event", "{}",
                "event-r2", true));
        AgentRuns.Admission third = underTest.admit(new RunRequest("r3", AGENT, OWNER, 2, "gadget.event", "{}",
                "event-r3", true));

        assertThat(second.status()).as("not behind r1, which would never hand it the turn")
                .isEqualTo(RunStatus.ADMITTED);
        assertThat(third.status()).as("behind r2, which will").isEqualTo(RunStatus.QUEUED);
    }

    @Test
    void aRestartEndsTheRunsItReplaces() {
        agents.with(AGENT, spec(Concurrency.RESTART, 1, 30));
        underTest.admit(request("r1", "gadget.event"));

        AgentRuns.Admission admission = underTest.admit(request("r2", "gadget.event"));

        assertThat(admission.cancelRuns()).containsExactly("r1");
        RunStore.Run replaced = runs.find("r1").orElseThrow();
        assertThat(replaced.status()).isEqualTo(RunStatus.DROPPED_CONCURRENCY);
        assertThat(replaced.reason()).isEqualTo("restarted by run r2");
        assertThat(runs.find("r2").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
    }

    @Test
    void anInvokedRunLeavesNoEntryInTheDecisionLedger() {
        underTest.admit(request("r1", "invoke"));

        assertThat(runs.find("r1").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(runs.decisions(AGENT, 10)).isEmpty();
    }
}
