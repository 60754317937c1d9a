package dev.ringzero.kernel;

import static dev.ringzero.kernel.KernelFixtures.ALICE;
import static dev.ringzero.kernel.KernelFixtures.earnedRule;
import static dev.ringzero.kernel.KernelFixtures.payload;
import static dev.ringzero.kernel.KernelFixtures.rule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.ringzero.kernel.KernelFixtures.FakeTrust;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link TrustLadder}: first matching rule wins, predicates fail closed, earned trust is earned and lost. */
class TrustLadderTest {

    private static final Instant NOW = Instant.parse("2025-06-02T10:00:00Z");
    private static final String MAILER = "mailer";
    private static final Map<String, String> INTERNAL = Map.of("to", "*@ourco.com");

    private final FakeTrust history = new FakeTrust();

    private TrustDecision evaluate(String agentId, String intent, Map<String, Object> payload) {
        return TrustLadder.evaluate(history.rules, agentId, intent, payload, history, NOW);
    }

    private static Map<String, Object> to(Object recipients) {
        return payload("to", recipients, "subject", "Standup");
    }

    private static TrustDecision decided(TrustLevel level, String ruleId) {
        return new TrustDecision(level, Optional.ofNullable(ruleId));
    }

    @Nested
    class Defaults {

        @ParameterizedTest
        @CsvSource({"email.send, GATE", "webhook.post, GATE", "chassis.drive, GATE", "arm.move, GATE",
            "speaker.say, AUTO", "display.show_text, AUTO", "chassis.stop, AUTO", "device.ota, DENY"})
        void withoutARuleTheIntentsDefaultApplies(String intent, TrustLevel expected) {
            assertThat(evaluate(MAILER, intent, Map.of())).isEqualTo(decided(expected, null));
        }
    }

    @Nested
    class Predicates {

        @Test
        void internalRecipientsAreAuto() {
            history.rule(rule("internal", ALICE, null, "email.send", INTERNAL, TrustLevel.AUTO));

            assertThat(evaluate(MAILER, "email.send", to(List.of("ann@ourco.com", "ben@ourco.com"))))
                    .isEqualTo(decided(TrustLevel.AUTO, "internal"));
        }

        @Test
        void addressesCompareWithoutRegardToCase() {
            history.rule(rule("internal", ALICE, null, "email.send", INTERNAL, TrustLevel.AUTO));

            assertThat(evaluate(MAILER, "email.send", to("Ann@OurCo.COM"))).isEqualTo(decided(TrustLevel.AUTO, "internal"));
        }

        @Test
        void aMixedRecipientListGates() {
            history.rule(rule("internal", ALICE, null, "email.send", INTERNAL, TrustLevel.AUTO));

            assertThat(evaluate(MAILER, "email.send", to(List.of("ann@ourco.com", "eve@evil.org"))))
                    .isEqualTo(decided(TrustLevel.GATE, null));
        }

        @Test
        void anArrayOfRecipientsIsCheckedElementByElement() {
            history.rule(rule("internal", ALICE, null, "email.send", INTERNAL, TrustLevel.AUTO));

            assertThat(evaluate(MAILER, "email.send", to(new String[] {"ann@ourco.com", "eve@evil.org"})))
                    .isEqualTo(decided(TrustLevel.GATE, null));
        }

        @Test
        void severalAddressesInOneStringNeverMatchAnAddressGlob() {
            history.rule(rule("internal", ALICE, null, "email.send", INTERNAL, TrustLevel.AUTO));

            assertThat(evaluate(MAILER, "email.send", to("eve@evil.org, ann@ourco.com")))
                    .isEqualTo(decided(TrustLevel.GATE, null));
            assertThat(evaluate(MAILER, "email.send", to("Eve <eve@evil.org>;ann@ourco.com")))
                    .isEqualTo(decided(TrustLevel.GATE, null));
        }

        @Test
        void anAddressOnALookalikeDomainDoesNotMatch() {
            history.rule(rule("internal", ALICE, null, "email.send", INTERNAL, TrustLevel.AUTO));

            assertThat(evaluate(MAILER, "email.send", to("eve@ourco.com.evil.org")))
                    .isEqualTo(decided(TrustLevel.GATE, null));
        }

        @Test
        void aMissingFieldDoesNotMatch() {
            history.rule(rule("internal", ALICE, null, "email.send", INTERNAL, TrustLevel.AUTO));

            assertThat(evaluate(MAILER, "email.send", payload("subject", "no recipients")))
                    .isEqualTo(decided(TrustLevel.GATE, null));
        }

        @Test
        void aNullFieldAnEmptyListAndANestedObjectDoNotMatch() {
            history.rule(rule("any", ALICE, null, "email.send", Map.of("to", "*"), TrustLevel.AUTO));

            assertThat(evaluate(MAILER, "email.send", to(null))).isEqualTo(decided(TrustLevel.GATE, null));
            assertThat(evaluate(MAILER, "email.send", to(List.of()))).isEqualTo(decided(TrustLevel.GATE, null));
            assertThat(evaluate(MAILER, "email.send", to(Map.of("address", "ann@ourco.com"))))
                    .isEqualTo(decided(TrustLevel.GATE, null));
            assertThat(evaluate(MAILER, "email.send", to(Arrays.asList("ann@ourco.com", null))))
                    .isEqualTo(decided(TrustLevel.GATE, null));
        }

        @Test
        void everyFieldOfThePredicateMustMatch() {
            history.rule(rule("hook", ALICE, null, "webhook.post",
                    Map.of("url", "https://hooks.ourco.com/*", "method", "POST"), TrustLevel.AUTO));

            assertThat(evaluate(MAILER, "webhook.post", payload("url", "https://hooks.ourco.com/a", "method", "POST")))
                    .isEqualTo(decided(TrustLevel.AUTO, "hook"));
            assertThat(evaluate(MAILER, "webhook.post", payload("url", "https://hooks.ourco.com/a", "method", "post")))
                    .isEqualTo(decided(TrustLevel.GATE, null));
            assertThat(evaluate(MAILER, "webhook.post", payload("url", "https://evil.org/a", "method", "POST")))
                    .isEqualTo(decided(TrustLevel.GATE, null));
        }

        @Test
        void numbersAndBooleansMatchByTheirText() {
            history.rule(rule("slow", ALICE, null, "chassis.drive", Map.of("speed", "0.?", "reverse", "false"),
                    TrustLevel.AUTO));

            assertThat(evaluate(MAILER, "chassis.drive", payload("speed", 0.5, "reverse", false)))
                    .isEqualTo(decided(TrustLevel.AUTO, "slow"));
            assertThat(evaluate(MAILER, "chassis.drive", payload("speed", 0.75, "reverse", false)))
                    .isEqualTo(decided(TrustLevel.GATE, null));
        }

        @Test
        void anEmptyPredicateMatchesEveryPayload() {
            history.rule(rule("all", ALICE, null, "email.send", Map.of(), TrustLevel.AUTO));

            assertThat(evaluate(MAILER, "email.send", Map.of())).isEqualTo(decided(TrustLevel.AUTO, "all"));
        }
    }

    @Nested
    class Scope {

        @Test
        void aRuleScopedToOneAgentDoesNotApplyToAnother() {
            history.rule(rule("mailer-only", ALICE, MAILER, "email.send", Map.of(), TrustLevel.AUTO));

            assertThat(evaluate(MAILER, "email.send", Map.of())).isEqualTo(decided(TrustLevel.AUTO, "mailer-only"));
            assertThat(evaluate("other-agent", "email.send", Map.of())).isEqualTo(decided(TrustLevel.GATE, null));
        }

        @Test
        void aRuleForAllAgentsAppliesToEachOfThem() {
            history.rule(rule("everyone", ALICE, null, "email.send", Map.of(), TrustLevel.AUTO));

            assertThat(evaluate("any-agent", "email.send", Map.of())).isEqualTo(decided(TrustLevel.AUTO, "everyone"));
        }

        @Test
        void aRuleForAnotherIntentDoesNotApply() {
            history.rule(rule("hooks", ALICE, null, "webhook.post", Map.of(), TrustLevel.AUTO));

            assertThat(evaluate(MAILER, "email.send", Map.of())).isEqualTo(decided(TrustLevel.GATE, null));
        }

        @Test
        void anIntentGlobCoversANamespace() {
            history.rule(rule("no-moving", ALICE, null, "chassis.*", Map.of(), TrustLevel.DENY));

            assertThat(evaluate(MAILER, "chassis.drive", Map.of())).isEqualTo(decided(TrustLevel.DENY, "no-moving"));
            assertThat(evaluate(MAILER, "Chassis.Turn", Map.of())).isEqualTo(decided(TrustLevel.DENY, "no-moving"));
            assertThat(evaluate(MAILER, "arm.move", Map.of())).isEqualTo(decided(TrustLevel.GATE, null));
        }
    }

    @Nested
    class Order {

        @Test
        void theFirstMatchingRuleWins() {
            history.rule(rule("no-competitors", ALICE, null, "email.send", Map.of("to", "*@competitor.com"),
                    TrustLevel.DENY));
            history.rule(rule("anyone", ALICE, null, "email.send", Map.of(), TrustLevel.AUTO));

            assertThat(evaluate(MAILER, "email.send", to("spy@competitor.com")))
                    .isEqualTo(decided(TrustLevel.DENY, "no-competitors"));
            assertThat(evaluate(MAILER, "email.send", to("ann@ourco.com"))).isEqualTo(decided(TrustLevel.AUTO, "anyone"));
        }

        @Test
        void aBroadRuleFirstShadowsANarrowOneAfterIt() {
            history.rule(rule("anyone", ALICE, null, "email.send", Map.of(), TrustLevel.AUTO));
            history.rule(rule("no-competitors", ALICE, null, "email.send", Map.of("to", "*@competitor.com"),
                    TrustLevel.DENY));

            assertThat(evaluate(MAILER, "email.send", to("spy@competitor.com"))).isEqualTo(decided(TrustLevel.AUTO, "anyone"));
        }

        @Test
        void aRuleCanGateWhatWouldBeAutoByDefault() {
            history.rule(rule("ask-me", ALICE, null, "speaker.play_url", Map.of(), TrustLevel.GATE));

            assertThat(evaluate(MAILER, "speaker.play_url", Map.of())).isEqualTo(decided(TrustLevel.GATE, "ask-me"));
        }
    }

    @Nested
    class Earned {

        private final Duration week = Duration.ofDays(7);

        @Test
        void anEarnedRuleGatesUntilEnoughApprovalsWereExecuted() {
            history.rule(earnedRule("earned", "email.send", 3, week));
            history.approvedAndExecuted(MAILER, "email.send", "earned", NOW.minusSeconds(300), NOW.minusSeconds(200));

            assertThat(evaluate(MAILER, "email.send", Map.of())).isEqualTo(decided(TrustLevel.GATE, "earned"));
        }

        @Test
        void anEarnedRulePromotesToAutoAfterN() {
            history.rule(earnedRule("earned", "email.send", 3, week));
            history.approvedAndExecuted(MAILER, "email.send", "earned", NOW.minusSeconds(300), NOW.minusSeconds(200),
                    NOW.minusSeconds(100));

            assertThat(evaluate(MAILER, "email.send", Map.of())).isEqualTo(decided(TrustLevel.AUTO, "earned"));
        }

        @Test
        void aDenialDemotesBackToGate() {
            history.rule(earnedRule("earned", "email.send", 3, week));
            history.approvedAndExecuted(MAILER, "email.send", "earned", NOW.minusSeconds(500), NOW.minusSeconds(400),
                    NOW.minusSeconds(300));
            history.decided(MAILER, "email.send", "earned", NOW.minusSeconds(60), false, false);

            assertThat(evaluate(MAILER, "email.send", Map.of())).isEqualTo(decided(TrustLevel.GATE, "earned"));
        }

        @Test
        void afterADenialTrustIsEarnedAgainFromScratch() {
            history.rule(earnedRule("earned", "email.send", 2, week));
            history.approvedAndExecuted(MAILER, "email.send", "earned", NOW.minusSeconds(500), NOW.minusSeconds(400));
            history.decided(MAILER, "email.send", "earned", NOW.minusSeconds(300), false, false);
            history.approvedAndExecuted(MAILER, "email.send", "earned", NOW.minusSeconds(200));
            assertThat(evaluate(MAILER, "email.send", Map.of())).isEqualTo(decided(TrustLevel.GATE, "earned"));

            history.approvedAndExecuted(MAILER, "email.send", "earned", NOW.minusSeconds(100));

            assertThat(evaluate(MAILER, "email.send", Map.of())).isEqualTo(decided(TrustLevel.AUTO, "earned"));
        }

        @Test
        void aDenialAtTheSameInstantAsAnApprovalCountsAsLast() {
            history.rule(earnedRule("earned", "email.send", 1, week));
            history.approvedAndExecuted(MAILER, "email.send", "earned", NOW.minusSeconds(100));
            history.decided(MAILER, "email.send", "earned", NOW.minusSeconds(100), false, false);

            assertThat(evaluate(MAILER, "email.send", Map.of())).isEqualTo(decided(TrustLevel.GATE, "earned"));
        }

        @Test
        void approvalsOutsideTheWindowDoNotCount() {
            history.rule(earnedRule("earned", "email.send", 2, week));
            history.approvedAndExecuted(MAILER, "email.send", "earned", NOW.minus(week).minusSeconds(1),
                    NOW.minusSeconds(100));

            assertThat(evaluate(MAILER, "email.send", Map.of())).isEqualTo(decided(TrustLevel.GATE, "earned"));
        }

        @Test
        void anApprovalExactlyAtTheWindowStartCounts() {
            history.rule(earnedRule("earned", "email.send", 2, week));
            history.approvedAndExecuted(MAILER, "email.send", "earned", NOW.minus(week), NOW.minusSeconds(100));

            assertThat(evaluate(MAILER, "email.send", Map.of())).isEqualTo(decided(TrustLevel.AUTO, "earned"));
        }

        @Test
        void aDenialOutsideTheWindowIsForgotten() {
            history.rule(earnedRule("earned", "email.send", 1, week));
            history.decided(MAILER, "email.send", "earned", NOW.minus(week).minusSeconds(1), false, false);
            history.approvedAndExecuted(MAILER, "email.send", "earned", NOW.minusSeconds(100));

            assertThat(evaluate(MAILER, "email.send", Map.of())).isEqualTo(decided(TrustLevel.AUTO, "earned"));
        }

        @Test
        void anApprovalThatDidNotExecuteEarnsNothing() {
            history.rule(earnedRule("earned", "email.send", 1, week));
            history.decided(MAILER, "email.send", "earned", NOW.minusSeconds(100), true, false);

            assertThat(evaluate(MAILER, "email.send", Map.of())).isEqualTo(decided(TrustLevel.GATE, "earned"));
        }

        @Test
        void trustIsEarnedPerAgentAndRule() {
            history.rule(earnedRule("earned", "email.send", 1, week));
            history.approvedAndExecuted("other-agent", "email.send", "earned", NOW.minusSeconds(100));
            history.approvedAndExecuted(MAILER, "email.send", "another-rule", NOW.minusSeconds(100));

            assertThat(evaluate(MAILER, "email.send", Map.of())).isEqualTo(decided(TrustLevel.GATE, "earned"));
        }

        @Test
        void theHistoryIsAskedForTheRulesWindow() {
            history.rule(earnedRule("earned", "email.send", 1, week));

            evaluate(MAILER, "email.send", Map.of());

            assertThat(history.queries).containsExactly(
                    String.join("|", ALICE, MAILER, "email.send", "earned", NOW.minus(week).toString()));
        }

        @Test
        void anEarnedRuleNeedsItsTerms() {
            assertThatExceptionOfType(IllegalArgumentException.class)
                    .isThrownBy(() -> earnedRule("earned", "email.send", 0, week));
            assertThatExceptionOfType(IllegalArgumentException.class)
                    .isThrownBy(() -> earnedRule("earned", "email.send", 3, Duration.ZERO));
        }

        @Test
        void anEarnedLevelIsNeverADecision() {
            assertThatExceptionOfType(IllegalArgumentException.class)
                    .isThrownBy(() -> new TrustDecision(TrustLevel.EARNED, Optional.empty()));
        }
    }

    @Test
    void decisionsBecomeVerdicts() {
        assertThat(decided(TrustLevel.AUTO, "r").verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(decided(TrustLevel.GATE, "r").verdict()).isEqualTo(new Verdict.Gate("r"));
        assertThat(decided(TrustLevel.GATE, null).verdict()).isEqualTo(new Verdict.Gate(null));
        assertThat(decided(TrustLevel.DENY, "r").verdict())
                .isInstanceOfSatisfying(Verdict.Deny.class, deny -> assertThat(deny.reason()).isEqualTo(DenyReason.TRUST_DENY));
    }

    @ParameterizedTest
    @CsvSource({"AUTO, auto", "GATE, gate", "EARNED, earned", "DENY, deny"})
    void trustLevelsHaveLowerCaseWireNames(TrustLevel level, String wire) {
        assertThat(level.wire()).isEqualTo(wire);
        assertThat(TrustLevel.fromWire(wire)).isEqualTo(level);
    }
}
