package dev.ringzero.kernel;

import static dev.ringzero.kernel.KernelFixtures.ALICE;
import static dev.ringzero.kernel.KernelFixtures.BOB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ringzero.kernel.KernelFixtures.AgentStub;
import dev.ringzero.kernel.KernelFixtures.FakeFacts;
import dev.ringzero.kernel.KernelFixtures.FakeTrust;
import org.junit.jupiter.api.Test;

/** {@link PolicyKernel#decideTool}: an llm run's platform tools are grants like commands. */
class PolicyKernelToolTest {

    private final AgentStub reader = new AgentStub("reader", ALICE);
    private final FakeFacts facts = new FakeFacts().with(reader);
    private final FakeTrust trust = new FakeTrust();
    private final PolicyKernel underTest = new PolicyKernel(facts, trust, trust);

    @Test
    void aGrantedToolIsAllowed() {
        assertThat(underTest.decideTool(reader.run(), "calendar.today")).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void aToolOutsideTheGrantIsNotAllowed() {
        Verdict verdict = underTest.decideTool(reader.run(), "state.set");

        assertThat(verdict).isInstanceOfSatisfying(Verdict.Deny.class,
                deny -> assertThat(deny.reason()).isEqualTo(DenyReason.NOT_ALLOWED));
    }

    @Test
    void aDisabledAgentsToolCallIsFenced() {
        Subject.AgentRun run = reader.run();
        reader.enabled = false;

        assertThat(underTest.decideTool(run, "calendar.today")).isInstanceOfSatisfying(Verdict.Deny.class,
                deny -> assertThat(deny.reason()).isEqualTo(DenyReason.AGENT_DISABLED));
    }

    @Test
    void aRunOfAnOlderRevisionIsFenced() {
        Subject.AgentRun run = reader.run();
        reader.revision++;

        assertThat(underTest.decideTool(run, "calendar.today")).isInstanceOfSatisfying(Verdict.Deny.class,
                deny -> assertThat(deny.reason()).isEqualTo(DenyReason.REVISION_STALE));
    }

    @Test
    void anotherAccountsAgentDoesNotExist() {
        Subject.AgentRun foreign = new Subject.AgentRun(BOB, reader.id, reader.revision, "run-x");

        assertThat(underTest.decideTool(foreign, "calendar.today")).isInstanceOfSatisfying(Verdict.Deny.class,
                deny -> assertThat(deny.reason()).isEqualTo(DenyReason.AGENT_UNKNOWN));
    }
}
