package dev.ringzero.kernel;

import static dev.ringzero.kernel.KernelFixtures.ALICE;
import static dev.ringzero.kernel.KernelFixtures.BOB;
import static dev.ringzero.kernel.KernelFixtures.NIGHT;
import static dev.ringzero.kernel.KernelFixtures.NIGHTS;
import static dev.ringzero.kernel.KernelFixtures.NOON;
import static dev.ringzero.kernel.KernelFixtures.denial;
import static dev.ringzero.kernel.KernelFixtures.rule;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ringzero.kernel.KernelFixtures.AgentStub;
import dev.ringzero.kernel.KernelFixtures.FakeFacts;
import dev.ringzero.kernel.KernelFixtures.FakeTrust;
import dev.ringzero.kernel.KernelFixtures.GadgetStub;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link PolicyKernel#decide(ActionRequest)}: every verdict path, every reason, and the order of checks. */
class PolicyKernelActionTest {

    private final GadgetStub desk = new GadgetStub("desk-1", ALICE);
    private final GadgetStub bobsDesk = new GadgetStub("bobs-desk", BOB);
    private final AgentStub barker = new AgentStub("barker", ALICE);
    private final AgentStub bobsAgent = new AgentStub("bobs-agent", BOB);
    private final FakeFacts facts = new FakeFacts().with(desk).with(bobsDesk).with(barker).with(bobsAgent);
    private final FakeTrust trust = new FakeTrust();
    private final PolicyKernel underTest = new PolicyKernel(facts, trust, trust);

    private ActionRequest byAgent(String command) {
        return byAgent(desk.id, command, Priority.PROACTIVE, NOON);
    }

    private ActionRequest byAgent(String gadgetId, String command, Priority priority, Instant at) {
        return new ActionRequest(barker.run(), gadgetId, command, Map.of(), priority, at);
    }

    private ActionRequest byOwner(String gadgetId, String command, Priority priority, Instant at) {
        return new ActionRequest(new Subject.Owner(ALICE), gadgetId, command, Map.of(), priority, at);
    }

    private ActionRequest byApprovedGate(String command, Instant at) {
        return new ActionRequest(new Subject.ApprovedGate(ALICE, "gate-1"), desk.id, command, Map.of(),
                Priority.APPROVED_GATE, at);
    }

    @Nested
    class Allowed {

        @Test
        void anEnabledAgentMaySendAnAllowedRegisteredCommandToItsOwnersOnlineGadget() {
            assertThat(underTest.decide(byAgent("speaker.say"))).isEqualTo(Verdict.ALLOW);
        }

        @Test
        void theOwnersDirectCommandNeedsNoAgentGrant() {
            desk.commands.add("led.blink");

            assertThat(underTest.decide(byOwner(desk.id, "led.blink", Priority.INTERACTION, NOON)))
                    .isEqualTo(Verdict.ALLOW);
        }

        @Test
        void anApprovedGateExecutesAMovingCommandWithoutAnotherGate() {
            assertThat(underTest.decide(byApprovedGate("chassis.drive", NOON))).isEqualTo(Verdict.ALLOW);
        }

        @Test
        void aStopNeedsNoPhysicalGrantAndIsNotGated() {
            barker.physical = false;

            assertThat(underTest.decide(byAgent("chassis.stop"))).isEqualTo(Verdict.ALLOW);
        }
    }

    @Nested
    class Ownership {

        @Test
        void anUnknownGadgetIsNotFound() {
            assertThat(denial(underTest.decide(byAgent("nowhere", "speaker.say", Priority.PROACTIVE, NOON))))
                    .isEqualTo(DenyReason.NOT_FOUND);
        }

        @Test
        void anotherOwnersGadgetIsNotFoundForTheOwnersDirectPath() {
            assertThat(denial(underTest.decide(byOwner(bobsDesk.id, "speaker.say", Priority.INTERACTION, NOON))))
                    .isEqualTo(DenyReason.NOT_FOUND);
        }

        @Test
        void anotherOwnersGadgetIsNotFoundForAnAgent() {
            assertThat(denial(underTest.decide(byAgent(bobsDesk.id, "speaker.say", Priority.PROACTIVE, NOON))))
                    .isEqualTo(DenyReason.NOT_FOUND);
        }

        @Test
        void anotherOwnersGadgetIsNotFoundForAnApprovedGate() {
            ActionRequest request = new ActionRequest(new Subject.ApprovedGate(ALICE, "gate-1"), bobsDesk.id,
                    "speaker.say", Map.of(), Priority.APPROVED_GATE, NOON);

            assertThat(denial(underTest.decide(request))).isEqualTo(DenyReason.NOT_FOUND);
        }

        @Test
        void anotherOwnersOfflineGadgetLooksExactlyLikeAMissingOne() {
            bobsDesk.online = false;
            Verdict missing = underTest.decide(byOwner("nowhere", "speaker.say", Priority.INTERACTION, NOON));

            Verdict others = underTest.decide(byOwner(bobsDesk.id, "speaker.say", Priority.INTERACTION, NOON));

            assertThat(others).isEqualTo(new Verdict.Deny(DenyReason.NOT_FOUND, "no gadget " + bobsDesk.id));
            assertThat(missing).isEqualTo(new Verdict.Deny(DenyReason.NOT_FOUND, "no gadget nowhere"));
        }
    }

    @Nested
    class DeviceState {

        @Test
        void anUnpairedGadgetFencesTheRun() {
            desk.paired = false;

            DenyReason reason = denial(underTest.decide(byAgent("speaker.say")));

            assertThat(reason).isEqualTo(DenyReason.UNPAIRED);
            assertThat(reason.isFence()).isTrue();
        }

        @Test
        void anUnpairedGadgetRefusesEvenTheOwner() {
            desk.paired = false;

            assertThat(denial(underTest.decide(byOwner(desk.id, "speaker.say", Priority.INTERACTION, NOON))))
                    .isEqualTo(DenyReason.UNPAIRED);
        }

        @Test
        void aCommandTheGadgetNoLongerRegistersIsRefused() {
            desk.commands.remove("speaker.say");

            assertThat(denial(underTest.decide(byAgent("speaker.say")))).isEqualTo(DenyReason.UNREGISTERED_COMMAND);
        }

        @Test
        void anUnregisteredCommandIsRefusedOnTheOwnersDirectPathToo() {
            assertThat(denial(underTest.decide(byOwner(desk.id, "led.blink", Priority.INTERACTION, NOON))))
                    .isEqualTo(DenyReason.UNREGISTERED_COMMAND);
        }

        @Test
        void anOfflineGadgetIsReportedOffline() {
            desk.online = false;

            assertThat(denial(underTest.decide(byAgent("speaker.say")))).isEqualTo(DenyReason.OFFLINE);
        }

        @Test
        void anOfflineGadgetRefusesTheOwnerAndApprovedGatesToo() {
            desk.online = false;

            assertThat(denial(underTest.decide(byOwner(desk.id, "speaker.say", Priority.INTERACTION, NOON))))
                    .isEqualTo(DenyReason.OFFLINE);
            assertThat(denial(underTest.decide(byApprovedGate("speaker.say", NOON)))).isEqualTo(DenyReason.OFFLINE);
        }
    }

    @Nested
    class Privileged {

        @ParameterizedTest
        @ValueSource(strings = {"device.ota", "device.discover", "device.unpair"})
        void privilegedCommandsAreWithheldFromTheOwnersDirectPath(String command) {
            assertThat(denial(underTest.decide(byOwner(desk.id, command, Priority.INTERACTION, NOON))))
                    .isEqualTo(DenyReason.PRIVILEGED);
        }

        @ParameterizedTest
        @ValueSource(strings = {"device.ota", "device.discover", "device.unpair", "DEVICE.OTA"})
        void privilegedCommandsAreWithheldFromAgentsEvenWhenAllowlisted(String command) {
            barker.commands.add(command);
            desk.commands.add(command);

            assertThat(denial(underTest.decide(byAgent(command)))).isEqualTo(DenyReason.PRIVILEGED);
        }

        @Test
        void privilegedCommandsAreWithheldFromApprovedGates() {
            assertThat(denial(underTest.decide(byApprovedGate("device.unpair", NOON)))).isEqualTo(DenyReason.PRIVILEGED);
        }
    }

    @Nested
    class AgentStanding {

        @Test
        void aDisabledAgentsRunIsFenced() {
            barker.enabled = false;

            DenyReason reason = denial(underTest.decide(byAgent("speaker.say")));

            assertThat(reason).isEqualTo(DenyReason.AGENT_DISABLED);
            assertThat(reason.isFence()).isTrue();
        }

        @Test
        void aRevisedAgentsOldRunIsFencedAsRevisionStale() {
            ActionRequest queuedUnderRevision3 = byAgent("speaker.say");
            barker.revision = 4;

            DenyReason reason = denial(underTest.decide(queuedUnderRevision3));

            assertThat(reason).isEqualTo(DenyReason.REVISION_STALE);
            assertThat(reason.isFence()).isTrue();
        }

        @Test
        void aRunOfANewerRevisionThanTheStoredOneIsStaleToo() {
            ActionRequest request = new ActionRequest(new Subject.AgentRun(ALICE, barker.id, 5, "run-x"), desk.id,
                    "speaker.say", Map.of(), Priority.PROACTIVE, NOON);

            assertThat(denial(underTest.decide(request))).isEqualTo(DenyReason.REVISION_STALE);
        }

        @Test
        void aDeletedAgentsRunIsFencedAsAgentUnknown() {
            ActionRequest request = byAgent("speaker.say");
            facts.forget(barker.id);

            assertThat(denial(underTest.decide(request))).isEqualTo(DenyReason.AGENT_UNKNOWN);
        }

        @Test
        void anotherOwnersAgentIsUnknownToThisAccount() {
            ActionRequest request = new ActionRequest(new Subject.AgentRun(ALICE, bobsAgent.id, bobsAgent.revision,
                    "run-x"), desk.id, "speaker.say", Map.of(), Priority.PROACTIVE, NOON);

            assertThat(denial(underTest.decide(request))).isEqualTo(DenyReason.AGENT_UNKNOWN);
        }
    }

    @Nested
    class Grants {

        @Test
        void aCommandOutsideTheAgentsAllowlistIsNotAllowed() {
            barker.commands.remove("speaker.say");

            assertThat(denial(underTest.decide(byAgent("speaker.say")))).isEqualTo(DenyReason.NOT_ALLOWED);
        }

        @Test
        void theAllowlistIsMatchedExactly() {
            desk.commands.add("Speaker.Say");

            assertThat(denial(underTest.decide(byAgent("Speaker.Say")))).isEqualTo(DenyReason.NOT_ALLOWED);
        }

        @ParameterizedTest
        @ValueSource(strings = {"chassis.drive", "arm.move", "servo.set", "motor.spin", "Chassis.Drive"})
        void aMovingCommandNeedsThePhysicalGrant(String command) {
            barker.physical = false;
            barker.commands.add(command);
            desk.commands.add(command);

            assertThat(denial(underTest.decide(byAgent(command)))).isEqualTo(DenyReason.PHYSICAL_NOT_GRANTED);
        }

        @Test
        void aRevokedPhysicalGrantFencesWorkQueuedWhileItWasHeld() {
            ActionRequest queued = byAgent("chassis.drive");
            barker.physical = false;

            DenyReason reason = denial(underTest.decide(queued));

            assertThat(reason).isEqualTo(DenyReason.PHYSICAL_NOT_GRANTED);
            assertThat(reason.isFence(true)).isTrue();
            assertThat(reason.isFence(false)).isFalse();
        }
    }

    @Nested
    class QuietHoursRule {

        @Test
        void backgroundSoundIsHeldBackDuringQuietHours() {
            desk.quietHours = NIGHTS;

            assertThat(denial(underTest.decide(byAgent(desk.id, "speaker.say", Priority.PROACTIVE, NIGHT))))
                    .isEqualTo(DenyReason.QUIET_HOURS);
        }

        @Test
        void anExplicitRunIsHeldBackDuringQuietHoursToo() {
            desk.quietHours = NIGHTS;

            assertThat(denial(underTest.decide(byAgent(desk.id, "speaker.play_url", Priority.EXPLICIT, NIGHT))))
                    .isEqualTo(DenyReason.QUIET_HOURS);
        }

        @Test
        void quietHoursAcrossMidnightHoldBackSoundAfterMidnight() {
            desk.quietHours = NIGHTS;
            Instant halfPastFiveInBerlin = Instant.parse("2025-06-03T03:30:00Z");

            assertThat(denial(underTest.decide(byAgent(desk.id, "speaker.say", Priority.PROACTIVE,
                    halfPastFiveInBerlin)))).isEqualTo(DenyReason.QUIET_HOURS);
        }

        @Test
        void soundOutsideTheQuietWindowPlays() {
            desk.quietHours = NIGHTS;

            assertThat(underTest.decide(byAgent(desk.id, "speaker.say", Priority.PROACTIVE, NOON)))
                    .isEqualTo(Verdict.ALLOW);
        }

        @Test
        void aGadgetWithoutQuietHoursPlaysAtNight() {
            assertThat(underTest.decide(byAgent(desk.id, "speaker.say", Priority.PROACTIVE, NIGHT)))
                    .isEqualTo(Verdict.ALLOW);
        }

        @Test
        void theOwnersDirectPathIsExempt() {
            desk.quietHours = NIGHTS;

            assertThat(underTest.decide(byOwner(desk.id, "speaker.say", Priority.INTERACTION, NIGHT)))
                    .isEqualTo(Verdict.ALLOW);
        }

        @Test
        void anApprovedGateIsExempt() {
            desk.quietHours = NIGHTS;

            assertThat(underTest.decide(byApprovedGate("speaker.say", NIGHT))).isEqualTo(Verdict.ALLOW);
        }

        @Test
        void anAgentClaimingToBeThePersonIsStillHeldBack() {
            desk.quietHours = NIGHTS;

            assertThat(denial(underTest.decide(byAgent(desk.id, "speaker.say", Priority.INTERACTION, NIGHT))))
                    .isEqualTo(DenyReason.QUIET_HOURS);
        }

        @Test
        void theOwnersOwnBackgroundWorkIsHeldBack() {
            desk.quietHours = NIGHTS;

            assertThat(denial(underTest.decide(byOwner(desk.id, "speaker.say", Priority.PROACTIVE, NIGHT))))
                    .isEqualTo(DenyReason.QUIET_HOURS);
        }

        @ParameterizedTest
        @ValueSource(strings = {"display.show_text", "speaker.stop"})
        void silentCommandsAndStoppingSoundAreFineDuringQuietHours(String command) {
            desk.quietHours = NIGHTS;

            assertThat(underTest.decide(byAgent(desk.id, command, Priority.PROACTIVE, NIGHT))).isEqualTo(Verdict.ALLOW);
        }
    }

    @Nested
    class TrustLadderRule {

        @Test
        void aMovingCommandFromAnAgentIsGatedByDefault() {
            assertThat(underTest.decide(byAgent("chassis.drive"))).isEqualTo(new Verdict.Gate(null));
        }

        @Test
        void aTrustRuleCanLetAnAgentMoveWithoutAGate() {
            trust.rule(rule("r-drive", ALICE, barker.id, "chassis.drive", Map.of(), TrustLevel.AUTO));

            assertThat(underTest.decide(byAgent("chassis.drive"))).isEqualTo(Verdict.ALLOW);
        }

        @Test
        void aTrustRuleCanGateAnOrdinaryCommand() {
            trust.rule(rule("r-say", ALICE, null, "speaker.say", Map.of(), TrustLevel.GATE));

            assertThat(underTest.decide(byAgent("speaker.say"))).isEqualTo(new Verdict.Gate("r-say"));
        }

        @Test
        void aDenyingTrustRuleRefusesTheCommand() {
            trust.rule(rule("r-no-urls", ALICE, null, "speaker.play_url", Map.of(), TrustLevel.DENY));

            assertThat(denial(underTest.decide(byAgent("speaker.play_url")))).isEqualTo(DenyReason.TRUST_DENY);
        }

        @Test
        void aTrustRulePredicateMatchesTheRenderedParameters() {
            trust.rule(rule("r-slow", ALICE, null, "chassis.drive", Map.of("speed", "slow"), TrustLevel.AUTO));
            ActionRequest slow = new ActionRequest(barker.run(), desk.id, "chassis.drive", Map.of("speed", "slow"),
                    Priority.PROACTIVE, NOON);
            ActionRequest fast = new ActionRequest(barker.run(), desk.id, "chassis.drive", Map.of("speed", "fast"),
                    Priority.PROACTIVE, NOON);

            assertThat(underTest.decide(slow)).isEqualTo(Verdict.ALLOW);
            assertThat(underTest.decide(fast)).isEqualTo(new Verdict.Gate(null));
        }

        @Test
        void anotherOwnersTrustRuleNeverApplies() {
            trust.rule(rule("bobs-rule", BOB, null, "chassis.drive", Map.of(), TrustLevel.AUTO));

            assertThat(underTest.decide(byAgent("chassis.drive"))).isEqualTo(new Verdict.Gate(null));
        }

        @Test
        void theOwnersDirectPathIsNotGatedByTrustRules() {
            trust.rule(rule("r-say", ALICE, null, "speaker.say", Map.of(), TrustLevel.DENY));

            assertThat(underTest.decide(byOwner(desk.id, "speaker.say", Priority.INTERACTION, NOON)))
                    .isEqualTo(Verdict.ALLOW);
        }
    }

    /** The first failing check answers; each test makes two checks fail and expects the earlier one. */
    @Nested
    class CheckOrder {

        @Test
        void anotherOwnersGadgetIsNotFoundEvenWhenItIsOfflineUnpairedAndLacksTheCommand() {
            bobsDesk.online = false;
            bobsDesk.paired = false;
            bobsDesk.commands.clear();

            assertThat(denial(underTest.decide(byAgent(bobsDesk.id, "speaker.say", Priority.PROACTIVE, NOON))))
                    .isEqualTo(DenyReason.NOT_FOUND);
        }

        @Test
        void anotherOwnersGadgetIsNotFoundEvenForAPrivilegedCommand() {
            assertThat(denial(underTest.decide(byOwner(bobsDesk.id, "device.ota", Priority.INTERACTION, NOON))))
                    .isEqualTo(DenyReason.NOT_FOUND);
        }

        @Test
        void aDisabledAgentIsFencedEvenWhenTheGadgetIsOffline() {
            barker.enabled = false;
            desk.online = false;

            assertThat(denial(underTest.decide(byAgent("speaker.say")))).isEqualTo(DenyReason.AGENT_DISABLED);
        }

        @Test
        void aStaleRevisionIsFencedEvenWhenTheGadgetIsAnotherOwners() {
            ActionRequest request = byAgent(bobsDesk.id, "speaker.say", Priority.PROACTIVE, NOON);
            barker.revision = 4;

            assertThat(denial(underTest.decide(request))).isEqualTo(DenyReason.REVISION_STALE);
        }

        @Test
        void anUnknownAgentAnswersBeforeItsDisabledState() {
            facts.forget(barker.id);

            assertThat(denial(underTest.decide(byAgent("speaker.say")))).isEqualTo(DenyReason.AGENT_UNKNOWN);
        }

        @Test
        void disabledAnswersBeforeAStaleRevision() {
            ActionRequest request = byAgent("speaker.say");
            barker.enabled = false;
            barker.revision = 4;

            assertThat(denial(underTest.decide(request))).isEqualTo(DenyReason.AGENT_DISABLED);
        }

        @Test
        void unpairedAnswersBeforeOffline() {
            desk.paired = false;
            desk.online = false;

            assertThat(denial(underTest.decide(byAgent("speaker.say")))).isEqualTo(DenyReason.UNPAIRED);
        }

        @Test
        void privilegedAnswersBeforeTheAllowlistAndRegistration() {
            desk.commands.remove("device.ota");

            assertThat(denial(underTest.decide(byAgent("device.ota")))).isEqualTo(DenyReason.PRIVILEGED);
        }

        @Test
        void aMissingGrantAnswersBeforeTheGadgetIsOffline() {
            barker.commands.remove("speaker.say");
            desk.online = false;

            assertThat(denial(underTest.decide(byAgent("speaker.say")))).isEqualTo(DenyReason.NOT_ALLOWED);
        }

        @Test
        void notAllowedAnswersBeforeThePhysicalGrant() {
            barker.commands.remove("chassis.drive");
            barker.physical = false;

            assertThat(denial(underTest.decide(byAgent("chassis.drive")))).isEqualTo(DenyReason.NOT_ALLOWED);
        }

        @Test
        void aMissingPhysicalGrantAnswersBeforeAnUnregisteredCommand() {
            barker.physical = false;
            desk.commands.remove("chassis.drive");

            assertThat(denial(underTest.decide(byAgent("chassis.drive")))).isEqualTo(DenyReason.PHYSICAL_NOT_GRANTED);
        }

        @Test
        void unregisteredAnswersBeforeOffline() {
            desk.commands.remove("speaker.say");
            desk.online = false;

            assertThat(denial(underTest.decide(byAgent("speaker.say")))).isEqualTo(DenyReason.UNREGISTERED_COMMAND);
        }

        @Test
        void offlineAnswersBeforeQuietHours() {
            desk.online = false;
            desk.quietHours = NIGHTS;

            assertThat(denial(underTest.decide(byAgent(desk.id, "speaker.say", Priority.PROACTIVE, NIGHT))))
                    .isEqualTo(DenyReason.OFFLINE);
        }

        @Test
        void quietHoursAnswerBeforeTheTrustLadderSoNobodyIsAskedAtNight() {
            desk.quietHours = NIGHTS;
            trust.rule(rule("r-say", ALICE, null, "speaker.say", Map.of(), TrustLevel.GATE));

            assertThat(denial(underTest.decide(byAgent(desk.id, "speaker.say", Priority.PROACTIVE, NIGHT))))
                    .isEqualTo(DenyReason.QUIET_HOURS);
        }

        @Test
        void aDeviceRefusalAnswersBeforeATrustDeny() {
            desk.online = false;
            trust.rule(rule("r-say", ALICE, null, "speaker.say", Map.of(), TrustLevel.DENY));

            assertThat(denial(underTest.decide(byAgent("speaker.say")))).isEqualTo(DenyReason.OFFLINE);
        }
    }

    /**
     * All but MOVER_BUSY and INVALID_PARAMS, which the dispatcher gives (the mover lease, the
     * registered parameters: {@code policy.MoversTest}, {@code dispatch.DispatcherTest}).
     */
    @ParameterizedTest
    @EnumSource(value = DenyReason.class, mode = EnumSource.Mode.EXCLUDE, names = {"MOVER_BUSY", "INVALID_PARAMS"})
    void everyDenyReasonIsReachableThroughTheKernel(DenyReason reason) {
        ActionRequest request = switch (reason) {
            case NOT_FOUND -> byAgent("nowhere", "speaker.say", Priority.PROACTIVE, NOON);
            case UNPAIRED -> {
                desk.paired = false;
                yield byAgent("speaker.say");
            }
            case OFFLINE -> {
                desk.online = false;
                yield byAgent("speaker.say");
            }
            case UNREGISTERED_COMMAND -> {
                desk.commands.remove("speaker.say");
                yield byAgent("speaker.say");
            }
            case NOT_ALLOWED -> byAgent("led.blink");
            case PHYSICAL_NOT_GRANTED -> {
                barker.physical = false;
                yield byAgent("arm.move");
            }
            case PRIVILEGED -> byAgent("device.ota");
            case QUIET_HOURS -> {
                desk.quietHours = NIGHTS;
                yield byAgent(desk.id, "speaker.say", Priority.PROACTIVE, NIGHT);
            }
            case AGENT_DISABLED -> {
                barker.enabled = false;
                yield byAgent("speaker.say");
            }
            case REVISION_STALE -> new ActionRequest(new Subject.AgentRun(ALICE, barker.id, 1, "old"), desk.id,
                    "speaker.say", Map.of(), Priority.PROACTIVE, NOON);
            case AGENT_UNKNOWN -> new ActionRequest(new Subject.AgentRun(ALICE, "ghost", 1, "r"), desk.id,
                    "speaker.say", Map.of(), Priority.PROACTIVE, NOON);
            case TRUST_DENY -> {
                trust.rule(rule("r", ALICE, null, "speaker.say", Map.of(), TrustLevel.DENY));
                yield byAgent("speaker.say");
            }
            case MOVER_BUSY, INVALID_PARAMS -> throw new IllegalStateException("not the kernel's decision");
        };

        assertThat(denial(underTest.decide(request))).isEqualTo(reason);
    }

    @Test
    void factsAreReadAtDecisionTimeSoARevocationStopsWorkAlreadyQueued() {
        List<ActionRequest> queued = List.of(byAgent("speaker.say"), byAgent("speaker.play_url"),
                byAgent("display.show_text"));
        assertThat(queued).allSatisfy(request -> assertThat(underTest.decide(request)).isEqualTo(Verdict.ALLOW));

        barker.enabled = false;

        assertThat(queued).allSatisfy(request -> assertThat(denial(underTest.decide(request)).isFence()).isTrue());
    }
}
