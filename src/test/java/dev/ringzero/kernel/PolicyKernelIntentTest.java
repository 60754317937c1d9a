package dev.ringzero.kernel;

import static dev.ringzero.kernel.KernelFixtures.ALICE;
import static dev.ringzero.kernel.KernelFixtures.BOB;
import static dev.ringzero.kernel.KernelFixtures.NOON;
import static dev.ringzero.kernel.KernelFixtures.denial;
import static dev.ringzero.kernel.KernelFixtures.payload;
import static dev.ringzero.kernel.KernelFixtures.rule;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ringzero.kernel.KernelFixtures.AgentStub;
import dev.ringzero.kernel.KernelFixtures.FakeFacts;
import dev.ringzero.kernel.KernelFixtures.FakeTrust;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link PolicyKernel#decide(IntentRequest)}: action envelopes for ring-3 intents and gated commands. */
class PolicyKernelIntentTest {

    private final AgentStub mailer = new AgentStub("mailer", ALICE);
    private final AgentStub bobsAgent = new AgentStub("bobs-agent", BOB);
    private final FakeFacts facts = new FakeFacts().with(mailer).with(bobsAgent);
    private final FakeTrust trust = new FakeTrust();
    private final PolicyKernel underTest = new PolicyKernel(facts, trust, trust);

    private IntentRequest byAgent(String intent, Map<String, Object> payload) {
        return new IntentRequest(mailer.run(), intent, payload, NOON);
    }

    private static Map<String, Object> email(String... recipients) {
        return payload("to", List.of(recipients), "subject", "Standup", "body", "…");
    }

    @ParameterizedTest
    @ValueSource(strings = {"email.send", "webhook.post"})
    void aRing3IntentIsGatedByDefault(String intent) {
        assertThat(underTest.decide(byAgent(intent, Map.of()))).isEqualTo(new Verdict.Gate(null));
    }

    @Test
    void internalRecipientsAreAutoUnderTheOwnersRule() {
        trust.rule(rule("internal", ALICE, null, "email.send", Map.of("to", "*@ourco.com"), TrustLevel.AUTO));

        assertThat(underTest.decide(byAgent("email.send", email("ann@ourco.com", "ben@OURCO.com"))))
                .isEqualTo(Verdict.ALLOW);
    }

    @Test
    void oneOutsideRecipientGatesTheWholeEmail() {
        trust.rule(rule("internal", ALICE, null, "email.send", Map.of("to", "*@ourco.com"), TrustLevel.AUTO));

        assertThat(underTest.decide(byAgent("email.send", email("ann@ourco.com", "eve@elsewhere.org"))))
                .isEqualTo(new Verdict.Gate(null));
    }

    @Test
    void aGateNamesTheRuleThatAskedForIt() {
        trust.rule(rule("hooks", ALICE, null, "webhook.*", Map.of(), TrustLevel.GATE));

        assertThat(underTest.decide(byAgent("webhook.post", Map.of()))).isEqualTo(new Verdict.Gate("hooks"));
    }

    @Test
    void anEarnedRulePromotesToAutoAfterEnoughExecutedApprovals() {
        trust.rule(KernelFixtures.earnedRule("earned", "email.send", 2, Duration.ofDays(7)));
        IntentRequest request = byAgent("email.send", email("ann@ourco.com"));
        assertThat(underTest.decide(request)).isEqualTo(new Verdict.Gate("earned"));

        trust.approvedAndExecuted(mailer.id, "email.send", "earned", NOON.minusSeconds(7200), NOON.minusSeconds(3600));

        assertThat(underTest.decide(request)).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void aDenyingRuleRefusesTheIntent() {
        trust.rule(rule("no-hooks", ALICE, mailer.id, "webhook.post", Map.of(), TrustLevel.DENY));

        assertThat(denial(underTest.decide(byAgent("webhook.post", Map.of())))).isEqualTo(DenyReason.TRUST_DENY);
    }

    @Test
    void anIntentOutsideTheAgentsAllowedIntentsIsNotAllowed() {
        mailer.intents.remove("email.send");

        assertThat(denial(underTest.decide(byAgent("email.send", Map.of())))).isEqualTo(DenyReason.NOT_ALLOWED);
    }

    @Test
    void aRing3IntentCannotBeGrantedThroughTheDeviceCommandAllowlist() {
        mailer.intents.remove("email.send");
        mailer.commands.add("email.send");

        assertThat(denial(underTest.decide(byAgent("email.send", Map.of())))).isEqualTo(DenyReason.NOT_ALLOWED);
    }

    @Test
    void aProposedDeviceCommandIsGrantedByTheCommandAllowlist() {
        assertThat(underTest.decide(byAgent("display.show_text", Map.of("text", "hi")))).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void aProposedMovingCommandIsGatedByDefault() {
        assertThat(underTest.decide(byAgent("chassis.drive", Map.of("speed", 1)))).isEqualTo(new Verdict.Gate(null));
    }

    @Test
    void aProposedMovingCommandNeedsThePhysicalGrant() {
        mailer.physical = false;

        assertThat(denial(underTest.decide(byAgent("chassis.drive", Map.of())))).isEqualTo(DenyReason.PHYSICAL_NOT_GRANTED);
    }

    @Test
    void aDisabledAgentsEnvelopeIsFenced() {
        mailer.enabled = false;

        assertThat(denial(underTest.decide(byAgent("email.send", Map.of())))).isEqualTo(DenyReason.AGENT_DISABLED);
    }

    @Test
    void aRevisedAgentsOldEnvelopeIsFencedAsRevisionStale() {
        IntentRequest queued = byAgent("email.send", Map.of());
        mailer.revision++;

        assertThat(denial(underTest.decide(queued))).isEqualTo(DenyReason.REVISION_STALE);
    }

    @Test
    void anotherOwnersAgentIsUnknown() {
        IntentRequest request = new IntentRequest(new Subject.AgentRun(ALICE, bobsAgent.id, bobsAgent.revision, "r"),
                "email.send", Map.of(), NOON);

        assertThat(denial(underTest.decide(request))).isEqualTo(DenyReason.AGENT_UNKNOWN);
    }

    @Test
    void aFenceAnswersBeforeAMissingGrant() {
        mailer.enabled = false;
        mailer.intents.clear();

        assertThat(denial(underTest.decide(byAgent("email.send", Map.of())))).isEqualTo(DenyReason.AGENT_DISABLED);
    }

    @Test
    void aMissingGrantAnswersBeforeTheTrustLadder() {
        mailer.intents.remove("webhook.post");
        trust.rule(rule("no-hooks", ALICE, null, "webhook.post", Map.of(), TrustLevel.DENY));

        assertThat(denial(underTest.decide(byAgent("webhook.post", Map.of())))).isEqualTo(DenyReason.NOT_ALLOWED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"device.ota", "device.discover", "device.unpair"})
    void privilegedIntentsAreRefusedToEveryone(String intent) {
        mailer.intents.add(intent);
        mailer.commands.add(intent);

        assertThat(denial(underTest.decide(byAgent(intent, Map.of())))).isEqualTo(DenyReason.PRIVILEGED);
        assertThat(denial(underTest.decide(new IntentRequest(new Subject.Owner(ALICE), intent, Map.of(), NOON))))
                .isEqualTo(DenyReason.PRIVILEGED);
        assertThat(denial(underTest.decide(new IntentRequest(new Subject.ApprovedGate(ALICE, "g"), intent, Map.of(),
                NOON)))).isEqualTo(DenyReason.PRIVILEGED);
    }

    @Test
    void theOwnersOwnIntentIsAllowed() {
        assertThat(underTest.decide(new IntentRequest(new Subject.Owner(ALICE), "email.send", email("x@y.org"), NOON)))
                .isEqualTo(Verdict.ALLOW);
    }

    @Test
    void anApprovedGateExecutesItsIntentWithoutAnotherGate() {
        assertThat(underTest.decide(new IntentRequest(new Subject.ApprovedGate(ALICE, "gate-9"), "email.send",
                email("eve@elsewhere.org"), NOON))).isEqualTo(Verdict.ALLOW);
    }
}
