package dev.ringzero.agents.definition;

import dev.ringzero.gadgets.GadgetDirectory;
import static dev.ringzero.agents.definition.Fixtures.ALICE;
import static dev.ringzero.agents.definition.Fixtures.BARK;
import static dev.ringzero.agents.definition.Fixtures.DIRECTORY;
import static dev.ringzero.agents.definition.Fixtures.GOOD_MORNING;
import static dev.ringzero.agents.definition.Fixtures.LLM;
import static dev.ringzero.agents.definition.Fixtures.WEEKDAY_SCHEDULE;
import static dev.ringzero.agents.definition.Fixtures.edit;
import static dev.ringzero.agents.definition.Fixtures.json;
import static dev.ringzero.agents.definition.Fixtures.remove;
import static dev.ringzero.agents.definition.Fixtures.set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.agents.definition.AgentSpec.Concurrency;
import dev.ringzero.agents.definition.AgentSpec.Kind;
import dev.ringzero.agents.definition.Trigger.GadgetEventTrigger;
import dev.ringzero.agents.definition.Trigger.InvokeTrigger;
import dev.ringzero.agents.definition.Trigger.ScheduleTrigger;
import dev.ringzero.gadgets.CommandSpec;
import dev.ringzero.gadgets.GadgetView;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class DefinitionValidatorTest {

    private final DefinitionValidator underTest = new DefinitionValidator(DIRECTORY, DefinitionLimits.defaults());

    private AgentSpec valid(JsonNode definition) {
        Validation result = underTest.validate(definition, ALICE);
        assertThat(result).isInstanceOf(Validation.Valid.class);
        return ((Validation.Valid) result).spec();
    }

    private List<Violation> violations(JsonNode definition) {
        Validation result = underTest.validate(definition, ALICE);
        assertThat(result).isInstanceOf(Validation.Invalid.class);
        return ((Validation.Invalid) result).violations();
    }

    /** The definition fails with exactly this one violation: proof that this rule, and only it, refused it. */
    private void refusedOnlyFor(JsonNode definition, String path, String code) {
        assertThat(violations(definition))
                .extracting(Violation::path, Violation::code)
                .containsExactly(tuple(path, code));
    }

    @Nested
    class SeedExamplesAreAccepted {

        @Test
        void barkWhenShakenHard() {
            AgentSpec spec = valid(json(BARK));

            assertThat(spec.kind()).isEqualTo(Kind.RULES);
            assertThat(spec.triggers()).singleElement().isInstanceOfSatisfying(GadgetEventTrigger.class, trigger -> {
                assertThat(trigger.event()).isEqualTo("shaken");
                assertThat(trigger.when().data()).containsEntry("strength", "hard");
            });
            assertThat(spec.actions()).singleElement().satisfies(action -> {
                assertThat(action.command()).isEqualTo("speaker.play_url");
                assertThat(action.params()).containsEntry("url", "https://example.org/bark.mp3");
            });
            assertThat(spec.budget()).isEqualTo(new AgentSpec.Budget(12, 60, 30, 8, 4000));
        }

        @Test
        void goodMorningWhenPickedUpBetweenSixAndTen() {
            AgentSpec spec = valid(json(GOOD_MORNING));

            assertThat(spec.triggers()).singleElement().isInstanceOfSatisfying(GadgetEventTrigger.class, trigger -> {
                assertThat(trigger.when().startHour()).isEqualTo(6);
                assertThat(trigger.when().endHour()).isEqualTo(10);
                assertThat(trigger.when().timeZone()).isEqualTo("Europe/Berlin");
            });
            assertThat(spec.actions().get(0).params().get("text")).asString().contains("{{event.data.orientation}}");
        }

        @Test
        void weekdayScheduleShowsText() {
            AgentSpec spec = valid(json(WEEKDAY_SCHEDULE));

            assertThat(spec.triggers()).singleElement()
                    .isEqualTo(new ScheduleTrigger("0 8 * * 1-5", "Europe/Berlin"));
        }

        @Test
        void llmAgentWithInstructionsToolsAndPhysicalGrant() {
            AgentSpec spec = valid(json(LLM));

            assertThat(spec.kind()).isEqualTo(Kind.LLM);
            assertThat(spec.actions()).isEmpty();
            assertThat(spec.triggers()).hasSize(2).last().isInstanceOf(InvokeTrigger.class);
            assertThat(spec.allow().tools()).containsExactly("calendar.today", "state.get");
            assertThat(spec.allow().physical()).isTrue();
            assertThat(spec.concurrency()).isEqualTo(Concurrency.PARALLEL);
            assertThat(spec.maxParallel()).isEqualTo(2);
            assertThat(spec.wakeOnResolve()).isTrue();
        }
    }

    @Nested
    class Gadgets {

        @Test
        void anotherOwnersGadgetIsRefused() {
            JsonNode definition = edit(BARK, d -> set(set(set(set(d,
                    "/gadgets/1", "\"bob-desk\""),
                    "/actions/0/gadget", "\"desk-1\""),
                    "/triggers/0/gadget", "\"desk-1\""),
                    "/allow/commands/0", "\"speaker.play_url\""));

            refusedOnlyFor(definition, "/gadgets/1", Violation.UNKNOWN_GADGET);
        }

        @Test
        void unknownGadgetIsRefused() {
            refusedOnlyFor(edit(BARK, d -> set(d, "/gadgets/1", "\"ghost-7\"")), "/gadgets/1", Violation.UNKNOWN_GADGET);
        }

        @Test
        void aDirectoryThatLeaksAnotherOwnersGadgetIsNotTrusted() {
            GadgetDirectory leaky = (owner, id) -> Optional.of(Fixtures.BOB_DESK);
            DefinitionValidator validator = new DefinitionValidator(leaky, DefinitionLimits.defaults());
            JsonNode definition = json("""
                    {"apiVersion": "ringzero/v1", "name": "x", "gadgets": ["bob-desk"], "kind": "rules",
                     "triggers": [{"kind": "invoke"}],
                     "actions": [{"gadget": "bob-desk", "command": "speaker.say", "params": {"text": "hi"}}],
                     "allow": {"commands": ["speaker.say"]}}
                    """);

            Validation result = validator.validate(definition, ALICE);

            assertThat(result).isInstanceOfSatisfying(Validation.Invalid.class, invalid ->
                    assertThat(invalid.violations()).extracting(Violation::code).contains(Violation.UNKNOWN_GADGET));
        }

        @Test
        void bobMaySaveADefinitionForHisOwnGadget() {
            JsonNode definition = json("""
                    {"apiVersion": "ringzero/v1", "name": "x", "gadgets": ["bob-desk"], "kind": "rules",
                     "triggers": [{"kind": "gadget.event", "gadget": "bob-desk", "event": "shaken"}],
                     "actions": [{"gadget": "bob-desk", "command": "speaker.say", "params": {"text": "hi"}}],
                     "allow": {"commands": ["speaker.say"]}}
                    """);

            assertThat(underTest.validate(definition, Fixtures.BOB)).isInstanceOf(Validation.Valid.class);
            assertThat(underTest.validate(definition, ALICE)).isInstanceOf(Validation.Invalid.class);
        }
    }

    @Nested
    class Actions {

        @Test
        void actionGadgetMustBeBound() {
            // rover-1 is alice's, but this definition does not bind it.
            refusedOnlyFor(edit(WEEKDAY_SCHEDULE, d -> set(d, "/actions/0/gadget", "\"rover-1\"")),
                    "/actions/0/gadget", Violation.ACTION_GADGET_NOT_BOUND);
        }

        @Test
        void commandMustBeRegisteredOnItsGadget() {
            // speaker.say is registered, on the desk: the action sends it to the rover.
            JsonNode definition = edit(WEEKDAY_SCHEDULE, d -> set(set(set(d,
                    "/gadgets/1", "\"rover-1\""),
                    "/actions/1", "{\"gadget\": \"rover-1\", \"command\": \"speaker.say\", \"params\": {\"text\": \"hi\"}}"),
                    "/allow/commands/1", "\"speaker.say\""));

            refusedOnlyFor(definition, "/actions/1/command", Violation.UNREGISTERED_COMMAND);
        }

        @Test
        void commandMustBeListedInAllow() {
            refusedOnlyFor(edit(BARK, d -> set(d, "/allow/commands", "[]")),
                    "/actions/0/command", Violation.COMMAND_NOT_ALLOWED);
        }

        @Test
        void requiredParamsMustBePresent() {
            refusedOnlyFor(edit(BARK, d -> set(d, "/actions/0/params", "{\"duration_ms\": 500}")),
                    "/actions/0/params/url", Violation.MISSING_PARAM);
        }

        @Test
        void actionWithoutParamsMissesTheRequiredOnes() {
            refusedOnlyFor(edit(BARK, d -> remove(d, "/actions/0/params")),
                    "/actions/0/params/url", Violation.MISSING_PARAM);
        }

        @Test
        void unknownParamsAreRefused() {
            refusedOnlyFor(edit(BARK, d -> set(d, "/actions/0/params/volume", "11")),
                    "/actions/0/params/volume", Violation.UNKNOWN_PARAM);
        }

        @Test
        void paramMustHaveTheRegisteredType() {
            refusedOnlyFor(edit(BARK, d -> set(d, "/actions/0/params/duration_ms", "\"long\"")),
                    "/actions/0/params/duration_ms", Violation.PARAM_TYPE);
        }

        @Test
        void integerParamRefusesAFraction() {
            refusedOnlyFor(edit(WEEKDAY_SCHEDULE, d -> set(d, "/actions/0/params/seconds", "2.5")),
                    "/actions/0/params/seconds", Violation.PARAM_TYPE);
        }

        @Test
        void integerParamAcceptsAWholeNumberWrittenWithAFraction() {
            valid(edit(WEEKDAY_SCHEDULE, d -> set(d, "/actions/0/params/seconds", "5.0")));
        }

        @Test
        void templateStandsInForAnyType() {
            AgentSpec spec = valid(edit(BARK, d -> set(d, "/actions/0/params/duration_ms", "\"{{state.barkMillis}}\"")));

            assertThat(spec.actions().get(0).params()).containsEntry("duration_ms", "{{state.barkMillis}}");
        }

        @Test
        void templatesMustParse() {
            refusedOnlyFor(edit(GOOD_MORNING, d -> set(d, "/actions/0/params/text", "\"Hi {{event.data\"")),
                    "/actions/0/params/text", Violation.TEMPLATE_INVALID);
        }

        @Test
        void templatesMayOnlyReferToKnownRoots() {
            refusedOnlyFor(edit(GOOD_MORNING, d -> set(d, "/actions/0/params/text", "\"{{env.HOME}}\"")),
                    "/actions/0/params/text", Violation.TEMPLATE_UNKNOWN_ROOT);
        }

        @Test
        void templatesInsideNestedParamValuesAreChecked() {
            GadgetView lamp = new GadgetView("lamp-1", ALICE, "Lamp", true, Instant.EPOCH,
                    Map.of("light.set", new CommandSpec("light.set", "",
                            Map.of("colour", new CommandSpec.ParamSpec("object", "")), Map.of(), 0)),
                    Set.of());
            DefinitionValidator validator = new DefinitionValidator(
                    (owner, id) -> Optional.of(lamp).filter(g -> g.id().equals(id) && g.ownerId().equals(owner)),
                    DefinitionLimits.defaults());
            JsonNode definition = json("""
                    {"apiVersion": "ringzero/v1", "name": "x", "gadgets": ["lamp-1"], "kind": "rules",
                     "triggers": [{"kind": "invoke"}],
                     "actions": [{"gadget": "lamp-1", "command": "light.set",
                                  "params": {"colour": {"names": ["red", "{{#each}}x{{/each}}"]}}}],
                     "allow": {"commands": ["light.set"]}}
                    """);

            assertThat(validator.validate(definition, ALICE)).isInstanceOfSatisfying(Validation.Invalid.class, invalid ->
                    assertThat(invalid.violations()).extracting(Violation::path, Violation::code)
                            .containsExactly(tuple("/actions/0/params/colour/names/1", Violation.TEMPLATE_INVALID)));
        }

        @Test
        void physicalActionNeedsTheGrant() {
            ObjectNode definition = json("""
                    {"apiVersion": "ringzero/v1", "name": "Patrol", "gadgets": ["rover-1"], "kind": "rules",
                     "triggers": [{"kind": "invoke"}],
                     "actions": [{"gadget": "rover-1", "command": "chassis.drive", "params": {"left": 0.5, "right": 0.5}}],
                     "allow": {"commands": ["chassis.drive"], "physical": false}}
                    """);

            assertThat(violations(definition))
                    .extracting(Violation::path, Violation::code)
                    .containsExactlyInAnyOrder(
                            tuple("/actions/0/command", Violation.PHYSICAL_NOT_GRANTED),
                            tuple("/allow/commands/0", Violation.PHYSICAL_NOT_GRANTED));
            valid(set(definition.deepCopy(), "/allow/physical", "true"));
        }

        @Test
        void privilegedCommandIsNeverAllowedEvenWhenRegisteredAndGranted() {
            JsonNode definition = edit(BARK, d -> set(set(d,
                    "/actions/0", "{\"gadget\": \"desk-1\", \"command\": \"device.ota\", \"params\": {\"url\": \"https://evil.example/fw.bin\"}}"),
                    "/allow/commands/0", "\"device.ota\""));

            assertThat(violations(definition))
                    .extracting(Violation::path, Violation::code)
                    .containsExactlyInAnyOrder(
                            tuple("/actions/0/command", Violation.PRIVILEGED_COMMAND),
                            tuple("/allow/commands/0", Violation.PRIVILEGED_COMMAND));
        }
    }

    @Nested
    class Allow {

        @Test
        void everyAllowedCommandMustBeRegisteredOnABoundGadget() {
            refusedOnlyFor(edit(BARK, d -> set(d, "/allow/commands/1", "\"speaker.shout\"")),
                    "/allow/commands/1", Violation.UNREGISTERED_COMMAND);
        }

        @Test
        void privilegedCommandInAllowAloneIsRefused() {
            refusedOnlyFor(edit(BARK, d -> set(d, "/allow/commands/1", "\"device.ota\"")),
                    "/allow/commands/1", Violation.PRIVILEGED_COMMAND);
        }

        @Test
        void physicalCommandInAllowAloneNeedsTheGrant() {
            refusedOnlyFor(edit(BARK, d -> set(set(d, "/gadgets/1", "\"rover-1\""), "/allow/commands/1", "\"chassis.stop\"")),
                    "/allow/commands/1", Violation.PHYSICAL_NOT_GRANTED);
        }

        @Test
        void toolsMustBeInTheCatalogue() {
            refusedOnlyFor(edit(LLM, d -> set(d, "/allow/tools/2", "\"shell.exec\"")),
                    "/allow/tools/2", Violation.UNKNOWN_TOOL);
        }

        @Test
        void intentsMustBeIntegrationsOrCommandsOfBoundGadgets() {
            refusedOnlyFor(edit(LLM, d -> set(d, "/allow/intents/2", "\"sms.send\"")),
                    "/allow/intents/2", Violation.UNKNOWN_INTENT);
        }

        @Test
        void deviceCommandOfAnUnboundGadgetIsNoIntent() {
            refusedOnlyFor(edit(BARK, d -> set(d, "/allow/intents", "[\"chassis.drive\"]")),
                    "/allow/intents/0", Violation.UNKNOWN_INTENT);
        }
    }

    @Nested
    class Kinds {

        @Test
        void rulesNeedActions() {
            refusedOnlyFor(edit(BARK, d -> set(d, "/actions", "[]")), "/actions", Violation.ACTIONS_REQUIRED);
        }

        @Test
        void rulesWithoutTheActionsFieldNeedActionsToo() {
            refusedOnlyFor(edit(BARK, d -> remove(d, "/actions")), "/actions", Violation.ACTIONS_REQUIRED);
        }

        @Test
        void rulesWithProseButNoActionsAreStillRefused() {
            refusedOnlyFor(edit(BARK, d -> set(remove(d, "/actions"), "/instructions", "\"bark loudly\"")),
                    "/actions", Violation.ACTIONS_REQUIRED);
        }

        @Test
        void llmNeedsInstructions() {
            refusedOnlyFor(edit(LLM, d -> remove(d, "/instructions")), "/instructions", Violation.INSTRUCTIONS_REQUIRED);
        }

        @Test
        void llmInstructionsMustNotBeBlank() {
            refusedOnlyFor(edit(LLM, d -> set(d, "/instructions", "\"  \\n \"")),
                    "/instructions", Violation.INSTRUCTIONS_REQUIRED);
        }
    }

    @Nested
    class Triggers {

        @Test
        void cronMustBeFiveFieldUnix() {
            refusedOnlyFor(edit(WEEKDAY_SCHEDULE, d -> set(d, "/triggers/0/cron", "\"0 0 8 * * MON-FRI\"")),
                    "/triggers/0/cron", Violation.INVALID_CRON);
        }

        @Test
        void cronFieldsMustBeInRange() {
            refusedOnlyFor(edit(WEEKDAY_SCHEDULE, d -> set(d, "/triggers/0/cron", "\"0 25 * * 1-5\"")),
                    "/triggers/0/cron", Violation.INVALID_CRON);
        }

        @Test
        void cronThatNeverFiresIsRefused() {
            refusedOnlyFor(edit(WEEKDAY_SCHEDULE, d -> set(d, "/triggers/0/cron", "\"0 0 31 2 *\"")),
                    "/triggers/0/cron", Violation.INVALID_CRON);
        }

        @Test
        void cronDigitsMustBeAscii() {
            // full-width digits: the cron parser reads them as numbers, a person reads them as text
            refusedOnlyFor(edit(WEEKDAY_SCHEDULE, d -> set(d, "/triggers/0/cron", "\"0 \uFF18 * * 1-5\"")),
                    "/triggers/0/cron", Violation.INVALID_CRON);
        }

        @Test
        void scheduleTimeZoneMustExist() {
            refusedOnlyFor(edit(WEEKDAY_SCHEDULE, d -> set(d, "/triggers/0/timeZone", "\"Europe/Atlantis\"")),
                    "/triggers/0/timeZone", Violation.INVALID_TIME_ZONE);
        }

        @Test
        void eventFilterTimeZoneMustExist() {
            refusedOnlyFor(edit(GOOD_MORNING, d -> set(d, "/triggers/0/when/timeZone", "\"Berlin\"")),
                    "/triggers/0/when/timeZone", Violation.INVALID_TIME_ZONE);
        }

        @Test
        void hoursMustStartBeforeTheyEnd() {
            refusedOnlyFor(edit(GOOD_MORNING, d -> set(d, "/triggers/0/when/hours", "[10, 6]")),
                    "/triggers/0/when/hours", Violation.INVALID_HOURS);
        }

        @Test
        void anEmptyHourWindowIsRefused() {
            refusedOnlyFor(edit(GOOD_MORNING, d -> set(d, "/triggers/0/when/hours", "[8, 8]")),
                    "/triggers/0/when/hours", Violation.INVALID_HOURS);
        }

        @Test
        void wholeDayWindowIsFine() {
            valid(edit(GOOD_MORNING, d -> set(d, "/triggers/0/when/hours", "[0, 24]")));
        }

        @Test
        void triggerGadgetMustBeBound() {
            refusedOnlyFor(edit(BARK, d -> set(d, "/triggers/0/gadget", "\"rover-1\"")),
                    "/triggers/0/gadget", Violation.TRIGGER_GADGET_NOT_BOUND);
        }

        @Test
        void eventMustBeOneTheGadgetRegistered() {
            refusedOnlyFor(edit(BARK, d -> set(d, "/triggers/0/event", "\"exploded\"")),
                    "/triggers/0/event", Violation.UNKNOWN_EVENT);
        }

        @Test
        void aGadgetThatRegisteredNoEventsAcceptsAnyEvent() {
            valid(edit(BARK, d -> set(set(d, "/gadgets/1", "\"rover-1\""),
                    "/triggers/0", "{\"kind\": \"gadget.event\", \"gadget\": \"rover-1\", \"event\": \"bumped\"}")));
        }
    }

    @Nested
    class LimitsAndState {

        @Test
        void eachBudgetValueMustLieWithinTheLimits() {
            JsonNode definition = edit(BARK, d -> set(d, "/budget", """
                    {"runsPerHour": 3601, "cooldownSeconds": 86401, "maxRunSeconds": 601,
                     "toolCallsPerRun": 65, "tokensPerRun": 100001}
                    """));

            assertThat(violations(definition))
                    .extracting(Violation::path, Violation::code)
                    .containsExactly(
                            tuple("/budget/runsPerHour", Violation.BUDGET_EXCEEDS_LIMIT),
                            tuple("/budget/cooldownSeconds", Violation.BUDGET_EXCEEDS_LIMIT),
                            tuple("/budget/maxRunSeconds", Violation.BUDGET_EXCEEDS_LIMIT),
                            tuple("/budget/toolCallsPerRun", Violation.BUDGET_EXCEEDS_LIMIT),
                            tuple("/budget/tokensPerRun", Violation.BUDGET_EXCEEDS_LIMIT));
        }

        @Test
        void onGateActionsAreCheckedAsActionsAreWithTheirOwnPaths() {
            List<Violation> found = violations(edit(BARK, d -> set(d, "/onGate", """
                    {"denied": [{"gadget": "desk-1", "command": "speaker.play_url",
                                 "params": {"url": "https://example.org/{{trigger.gate.state}}.mp3"}},
                                {"gadget": "desk-1", "command": "self.destruct", "params": {}}]}
                    """)));
            assertThat(found).extracting(Violation::path, Violation::code)
                    .contains(tuple("/onGate/denied/1/command", Violation.UNREGISTERED_COMMAND));
            assertThat(found).extracting(Violation::path).noneMatch(path -> path.startsWith("/onGate/denied/0"));
            valid(edit(BARK, d -> set(d, "/onGate", """
                    {"expired": [{"gadget": "desk-1", "command": "speaker.play_url",
                                  "params": {"url": "https://example.org/late.mp3"}}]}
                    """)));
            refusedOnlyFor(edit(BARK, d -> set(d, "/onGate", """
                    {"approved": [{"do": "email.send", "params": {"to": ["a@b.example"], "subject": "s", "body": "b"}}]}
                    """)), "/onGate/approved/0/do", Violation.INTENT_NOT_ALLOWED);
        }

        @Test
        void onGateIsForRulesAgents() {
            assertThat(violations(edit(LLM, d -> set(d, "/onGate", """
                    {"expired": [{"gadget": "desk-1", "command": "display.show_text", "params": {"text": "late"}}]}
                    """)))).extracting(Violation::path, Violation::code)
                    .contains(tuple("/onGate", Violation.ON_GATE_NEEDS_RULES));
        }

        @Test
        void aCooldownWaitNeedsAQueuedAgentAndStaysWithinTheCooldownLimit() {
            refusedOnlyFor(edit(BARK, d -> set(d, "/budget/cooldownWaitSeconds", "30")),
                    "/budget/cooldownWaitSeconds", Violation.COOLDOWN_WAIT_NEEDS_QUEUED);
            refusedOnlyFor(edit(BARK, d -> set(set(d, "/concurrency", "\"queued\""),
                    "/budget/cooldownWaitSeconds", "86401")), "/budget/cooldownWaitSeconds", Violation.BUDGET_EXCEEDS_LIMIT);
            valid(edit(BARK, d -> set(set(d, "/concurrency", "\"queued\""),
                    "/budget/cooldownWaitSeconds", "30")));
        }

        @Test
        void budgetAtTheLimitsIsAccepted() {
            valid(edit(BARK, d -> set(d, "/budget", """
                    {"runsPerHour": 3600, "cooldownSeconds": 86400, "maxRunSeconds": 600,
                     "toolCallsPerRun": 64, "tokensPerRun": 100000}
                    """)));
        }

        @Test
        void aNumberBeyondIntDoesNotWrapRoundUnderTheLimit() {
            // 2^32 + 5 would read as 5 if narrowed naively.
            refusedOnlyFor(edit(BARK, d -> set(d, "/budget/runsPerHour", "4294967301")),
                    "/budget/runsPerHour", Violation.BUDGET_EXCEEDS_LIMIT);
        }

        @Test
        void limitsAreConfigurable() {
            DefinitionValidator strict = new DefinitionValidator(DIRECTORY, new DefinitionLimits(10, 60, 30, 8, 4000, 1024));

            Validation result = strict.validate(json(BARK), ALICE);

            assertThat(result).isInstanceOfSatisfying(Validation.Invalid.class, invalid ->
                    assertThat(invalid.violations()).extracting(Violation::path, Violation::code)
                            .containsExactly(tuple("/budget/runsPerHour", Violation.BUDGET_EXCEEDS_LIMIT)));
        }

        @Test
        void stateAboveTheLimitIsRefused() {
            String big = "x".repeat(65_536);
            refusedOnlyFor(edit(BARK, d -> set(d, "/state", "{\"blob\": \"" + big + "\"}")),
                    "/state", Violation.STATE_TOO_LARGE);
        }

        @Test
        void stateJustWithinTheLimitIsAccepted() {
            // {"blob":"…"} adds 11 bytes around the string.
            String fits = "x".repeat(65_536 - 11);
            AgentSpec spec = valid(edit(BARK, d -> set(d, "/state", "{\"blob\": \"" + fits + "\"}")));

            assertThat(spec.state().get("blob").textValue()).hasSize(65_525);
        }

        @Test
        void stateSizeCountsUtf8Bytes() {
            // 22,000 three-byte characters: 22,000 chars but 66,000 bytes.
            String euros = "€".repeat(22_000);
            refusedOnlyFor(edit(BARK, d -> set(d, "/state", "{\"e\": \"" + euros + "\"}")),
                    "/state", Violation.STATE_TOO_LARGE);
        }
    }

    @Nested
    class Reporting {

        @Test
        void allSemanticFailuresAreReportedTogether() {
            JsonNode definition = edit(BARK, d -> set(set(set(set(d,
                    "/gadgets/1", "\"bob-desk\""),
                    "/triggers/0/event", "\"exploded\""),
                    "/budget/runsPerHour", "9999"),
                    "/actions/0/params/volume", "11"));

            assertThat(violations(definition))
                    .extracting(Violation::path, Violation::code)
                    .containsExactlyInAnyOrder(
                            tuple("/gadgets/1", Violation.UNKNOWN_GADGET),
                            tuple("/actions/0/params/volume", Violation.UNKNOWN_PARAM),
                            tuple("/triggers/0/event", Violation.UNKNOWN_EVENT),
                            tuple("/budget/runsPerHour", Violation.BUDGET_EXCEEDS_LIMIT));
        }

        @Test
        void schemaErrorsAreReportedAloneAndAllOfThem() {
            JsonNode definition = edit(BARK, d -> set(set(remove(d, "/name"),
                    "/gadgets/1", "\"bob-desk\""),
                    "/colour", "\"red\""));

            assertThat(violations(definition))
                    .extracting(Violation::path, Violation::code)
                    .containsExactlyInAnyOrder(
                            tuple("/name", Violation.SCHEMA),
                            tuple("/colour", Violation.SCHEMA));
        }

        @Test
        void everyViolationCarriesAMessage() {
            JsonNode definition = edit(BARK, d -> set(set(d, "/gadgets/1", "\"bob-desk\""), "/allow/tools", "[\"x.y\"]"));

            assertThat(violations(definition)).allSatisfy(violation -> assertThat(violation.message()).isNotBlank());
        }

        @Test
        void anUnknownOwnerOwnsNothing() {
            assertThat(underTest.validate(json(BARK), null)).isInstanceOfSatisfying(Validation.Invalid.class, invalid ->
                    assertThat(invalid.violations()).extracting(Violation::code).contains(Violation.UNKNOWN_GADGET));
        }
    }

    @Nested
    class PlatformActions {

        private ObjectNode withActions(String actions, String intents) {
            return edit(BARK, root -> set(set(root, "/actions", actions), "/allow/intents", intents));
        }

        @Test
        void stateWritesNeedNoGrantAndParseAsPlatformActions() {
            AgentSpec spec = valid(withActions("""
                    [{"do": "state.increment", "params": {"key": "count"}},
                     {"gadget": "desk-1", "command": "speaker.play_url", "params": {"url": "https://example.org/{{state.count}}.mp3"}}]
                    """, "[]"));

            assertThat(spec.actions().get(0).isPlatform()).isTrue();
            assertThat(spec.actions().get(0).writesState()).isTrue();
            assertThat(AgentSpec.firstStateWrite(spec.actionsFor(java.util.Map.of("kind", "invoke")))).isZero();
            assertThat(AgentSpec.from(spec.toJson())).isEqualTo(spec);
        }

        @Test
        void aStateActionWithBadParamsIsRefusedAtTheParam() {
            refusedOnlyFor(withActions("[{\"do\": \"state.increment\", \"params\": {\"key\": \"no spaces\"}}]", "[]"),
                    "/actions/0/params/key", Violation.PARAM_TYPE);
        }

        @Test
        void anIntentActionNeedsItsGrant() {
            refusedOnlyFor(withActions("[{\"do\": \"email.send\", \"params\": {\"to\": \"a@example.org\"}}]", "[]"),
                    "/actions/0/do", Violation.INTENT_NOT_ALLOWED);
            valid(withActions("[{\"do\": \"email.send\", \"params\": {\"to\": \"a@example.org\"}}]",
                    "[\"email.send\"]"));
        }

        @Test
        void anUnknownPlatformActionIsASchemaViolation() {
            assertThat(violations(withActions("[{\"do\": \"state.delete\"}]", "[]")))
                    .extracting(Violation::code).containsOnly(Violation.SCHEMA);
        }

        @Test
        void aPlatformActionCannotAlsoNameAGadget() {
            assertThat(violations(withActions(
                    "[{\"do\": \"state.set\", \"gadget\": \"desk-1\", \"params\": {\"key\": \"a\", \"value\": 1}}]",
                    "[]"))).extracting(Violation::code).containsOnly(Violation.SCHEMA);
        }
    }
}
