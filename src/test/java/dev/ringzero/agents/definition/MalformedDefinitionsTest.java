package dev.ringzero.agents.definition;

import static dev.ringzero.agents.definition.Fixtures.ALICE;
import static dev.ringzero.agents.definition.Fixtures.BARK;
import static dev.ringzero.agents.definition.Fixtures.DIRECTORY;
import static dev.ringzero.agents.definition.Fixtures.GOOD_MORNING;
import static dev.ringzero.agents.definition.Fixtures.LLM;
import static dev.ringzero.agents.definition.Fixtures.WEEKDAY_SCHEDULE;
import static dev.ringzero.agents.definition.Fixtures.edit;
import static dev.ringzero.agents.definition.Fixtures.remove;
import static dev.ringzero.agents.definition.Fixtures.set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each case breaks one valid seed definition in one way and names where the validator must point.
 * Together they are the "at least 40 malformed definitions, each refused naming the path".
 */
class MalformedDefinitionsTest {

    private final DefinitionValidator underTest = new DefinitionValidator(DIRECTORY, DefinitionLimits.defaults());

    /** {@code alsoAt}: paths a case legitimately reports besides its own (the same command in allow, say). */
    record Case(String name, JsonNode definition, String path, String code, List<String> alsoAt) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Case schema(String name, String base, Function<ObjectNode, ObjectNode> breakIt, String path) {
        return new Case(name, edit(base, breakIt), path, Violation.SCHEMA, List.of());
    }

    private static Case rule(String name, String base, Function<ObjectNode, ObjectNode> breakIt, String path, String code,
            String... alsoAt) {
        return new Case(name, edit(base, breakIt), path, code, List.of(alsoAt));
    }

    static Stream<Case> malformed() {
        return Stream.of(
                // missing required fields
                schema("missing apiVersion", BARK, d -> remove(d, "/apiVersion"), "/apiVersion"),
                schema("missing name", BARK, d -> remove(d, "/name"), "/name"),
                schema("missing gadgets", BARK, d -> remove(d, "/gadgets"), "/gadgets"),
                schema("missing kind", BARK, d -> remove(d, "/kind"), "/kind"),
                schema("missing triggers", BARK, d -> remove(d, "/triggers"), "/triggers"),
                schema("missing allow", BARK, d -> remove(d, "/allow"), "/allow"),
                schema("event trigger without event", BARK, d -> remove(d, "/triggers/0/event"), "/triggers/0/event"),
                schema("event trigger without gadget", BARK, d -> remove(d, "/triggers/0/gadget"), "/triggers/0/gadget"),
                schema("schedule without cron", WEEKDAY_SCHEDULE, d -> remove(d, "/triggers/0/cron"), "/triggers/0/cron"),
                schema("trigger without kind", BARK, d -> remove(d, "/triggers/0/kind"), "/triggers/0/kind"),
                schema("action without command", BARK, d -> remove(d, "/actions/0/command"), "/actions/0/command"),
                schema("action without gadget", BARK, d -> remove(d, "/actions/0/gadget"), "/actions/0/gadget"),
                // wrong values and types
                schema("apiVersion v2", BARK, d -> set(d, "/apiVersion", "\"ringzero/v2\""), "/apiVersion"),
                schema("name is a number", BARK, d -> set(d, "/name", "5"), "/name"),
                schema("name is empty", BARK, d -> set(d, "/name", "\"\""), "/name"),
                schema("name is blank", BARK, d -> set(d, "/name", "\"   \""), "/name"),
                schema("name is 121 characters", BARK, d -> set(d, "/name", "\"" + "n".repeat(121) + "\""), "/name"),
                schema("description over 2000 characters", BARK,
                        d -> set(d, "/description", "\"" + "d".repeat(2001) + "\""), "/description"),
                schema("gadgets is a string", BARK, d -> set(d, "/gadgets", "\"desk-1\""), "/gadgets"),
                schema("gadgets is empty", BARK, d -> set(d, "/gadgets", "[]"), "/gadgets"),
                schema("gadgets repeats an id", BARK, d -> set(d, "/gadgets/1", "\"desk-1\""), "/gadgets"),
                schema("gadget id with spaces", BARK, d -> set(d, "/gadgets/0", "\"desk 1\""), "/gadgets/0"),
                schema("seventeen gadgets", BARK, d -> set(d, "/gadgets", seventeenGadgets()), "/gadgets"),
                schema("kind script", BARK, d -> set(d, "/kind", "\"script\""), "/kind"),
                schema("triggers is empty", BARK, d -> set(d, "/triggers", "[]"), "/triggers"),
                schema("trigger kind webhook", BARK, d -> set(d, "/triggers/0/kind", "\"webhook\""), "/triggers/0/kind"),
                schema("trigger is a string", BARK, d -> set(d, "/triggers/0", "\"shaken\""), "/triggers/0"),
                schema("actions is an object", BARK, d -> set(d, "/actions", "{}"), "/actions"),
                schema("command name not dotted", BARK, d -> set(d, "/actions/0/command", "\"play\""), "/actions/0/command"),
                schema("command name with capitals", BARK,
                        d -> set(d, "/actions/0/command", "\"Speaker.Play\""), "/actions/0/command"),
                schema("params is a string", BARK, d -> set(d, "/actions/0/params", "\"url=x\""), "/actions/0/params"),
                schema("allow.commands is a string", BARK,
                        d -> set(d, "/allow/commands", "\"speaker.play_url\""), "/allow/commands"),
                schema("allow.physical is a string", BARK, d -> set(d, "/allow/physical", "\"yes\""), "/allow/physical"),
                schema("negative cooldown", BARK, d -> set(d, "/budget/cooldownSeconds", "-1"), "/budget/cooldownSeconds"),
                schema("fractional runsPerHour", BARK, d -> set(d, "/budget/runsPerHour", "1.5"), "/budget/runsPerHour"),
                schema("concurrency sometimes", BARK, d -> set(d, "/concurrency", "\"sometimes\""), "/concurrency"),
                schema("maxParallel 17", BARK, d -> set(d, "/maxParallel", "17"), "/maxParallel"),
                schema("enabled is a string", BARK, d -> set(d, "/enabled", "\"true\""), "/enabled"),
                schema("state is an array", BARK, d -> set(d, "/state", "[]"), "/state"),
                schema("wakeOnResolve is a number", BARK, d -> set(d, "/wakeOnResolve", "1"), "/wakeOnResolve"),
                schema("instructions over 4000 characters", LLM,
                        d -> set(d, "/instructions", "\"" + "i".repeat(4001) + "\""), "/instructions"),
                schema("day funday", GOOD_MORNING, d -> set(d, "/triggers/0/when/days", "[\"mon\", \"funday\"]"),
                        "/triggers/0/when/days/1"),
                schema("hour 25", GOOD_MORNING, d -> set(d, "/triggers/0/when/hours", "[6, 25]"), "/triggers/0/when/hours/1"),
                schema("hour -1", GOOD_MORNING, d -> set(d, "/triggers/0/when/hours", "[-1, 10]"), "/triggers/0/when/hours/0"),
                schema("three hours", GOOD_MORNING, d -> set(d, "/triggers/0/when/hours", "[6, 8, 10]"), "/triggers/0/when/hours"),
                schema("event data value is an array", BARK,
                        d -> set(d, "/triggers/0/when/data/strength", "[\"hard\"]"), "/triggers/0/when/data/strength"),
                // unknown fields, top level and nested
                schema("unknown top-level field", BARK, d -> set(d, "/colour", "\"red\""), "/colour"),
                schema("unknown field in a trigger", BARK, d -> set(d, "/triggers/0/colour", "\"red\""), "/triggers/0/colour"),
                schema("cron on an event trigger", BARK, d -> set(d, "/triggers/0/cron", "\"* * * * *\""), "/triggers/0/cron"),
                schema("unknown field in invoke trigger", BARK,
                        d -> set(d, "/triggers/1", "{\"kind\": \"invoke\", \"as\": \"root\"}"), "/triggers/1/as"),
                schema("unknown field in when", GOOD_MORNING,
                        d -> set(d, "/triggers/0/when/minutes", "[0, 30]"), "/triggers/0/when/minutes"),
                schema("unknown field in an action", BARK, d -> set(d, "/actions/0/delay", "5"), "/actions/0/delay"),
                schema("unknown field in allow", BARK, d -> set(d, "/allow/everything", "true"), "/allow/everything"),
                schema("unknown field in budget", BARK, d -> set(d, "/budget/retries", "3"), "/budget/retries"),
                // ownership and registration
                rule("another owner's gadget", BARK, d -> set(d, "/gadgets/1", "\"bob-desk\""), "/gadgets/1",
                        Violation.UNKNOWN_GADGET),
                rule("a gadget nobody paired", BARK, d -> set(d, "/gadgets/1", "\"ghost-1\""), "/gadgets/1",
                        Violation.UNKNOWN_GADGET),
                rule("unregistered command", BARK, d -> set(set(d, "/actions/0/command", "\"speaker.bark\""),
                        "/allow/commands/0", "\"speaker.bark\""), "/actions/0/command", Violation.UNREGISTERED_COMMAND,
                        "/allow/commands/0"),
                rule("command not in allow", BARK, d -> set(d, "/allow/commands/0", "\"speaker.say\""),
                        "/actions/0/command", Violation.COMMAND_NOT_ALLOWED),
                rule("action on an unbound gadget", WEEKDAY_SCHEDULE, d -> set(d, "/actions/0/gadget", "\"rover-1\""),
                        "/actions/0/gadget", Violation.ACTION_GADGET_NOT_BOUND),
                rule("missing required param", BARK, d -> set(d, "/actions/0/params", "{}"), "/actions/0/params/url",
                        Violation.MISSING_PARAM),
                rule("unknown param", BARK, d -> set(d, "/actions/0/params/volume", "11"), "/actions/0/params/volume",
                        Violation.UNKNOWN_PARAM),
                rule("param of the wrong type", BARK, d -> set(d, "/actions/0/params/url", "42"), "/actions/0/params/url",
                        Violation.PARAM_TYPE),
                rule("allowed command nobody registered", BARK, d -> set(d, "/allow/commands/1", "\"speaker.shout\""),
                        "/allow/commands/1", Violation.UNREGISTERED_COMMAND),
                rule("unknown tool", LLM, d -> set(d, "/allow/tools/0", "\"shell.exec\""), "/allow/tools/0",
                        Violation.UNKNOWN_TOOL),
                rule("unknown intent", LLM, d -> set(d, "/allow/intents/0", "\"sms.send\""), "/allow/intents/0",
                        Violation.UNKNOWN_INTENT),
                // templates
                rule("template calling a Java type", BARK, d -> set(d, "/actions/0/params/url", "\"{{T(java.lang.Runtime)}}\""),
                        "/actions/0/params/url", Violation.TEMPLATE_INVALID),
                rule("template lambda section", GOOD_MORNING,
                        d -> set(d, "/actions/0/params/text", "\"{{#lambda}}rm -rf{{/lambda}}\""),
                        "/actions/0/params/text", Violation.TEMPLATE_INVALID),
                rule("unclosed template section", GOOD_MORNING, d -> set(d, "/actions/0/params/text", "\"{{#lambda}}\""),
                        "/actions/0/params/text", Violation.TEMPLATE_INVALID),
                rule("template partial", GOOD_MORNING, d -> set(d, "/actions/0/params/text", "\"{{>/etc/passwd}}\""),
                        "/actions/0/params/text", Violation.TEMPLATE_INVALID),
                rule("template delimiter change", GOOD_MORNING,
                        d -> set(d, "/actions/0/params/text", "\"{{=<% %>=}}<%#x%><%/x%>\""),
                        "/actions/0/params/text", Violation.TEMPLATE_INVALID),
                rule("template with an unknown root", GOOD_MORNING,
                        d -> set(d, "/actions/0/params/text", "\"{{secrets.apiKey}}\""),
                        "/actions/0/params/text", Violation.TEMPLATE_UNKNOWN_ROOT),
                // physical and privileged
                rule("physical action without grant", BARK, d -> set(set(set(d,
                                "/gadgets/1", "\"rover-1\""),
                                "/actions/1", "{\"gadget\": \"rover-1\", \"command\": \"chassis.stop\"}"),
                                "/allow/commands/1", "\"chassis.stop\""),
                        "/actions/1/command", Violation.PHYSICAL_NOT_GRANTED, "/allow/commands/1"),
                rule("privileged command", BARK, d -> set(set(d,
                                "/actions/0/command", "\"device.ota\""),
                                "/allow/commands/0", "\"device.ota\""),
                        "/actions/0/command", Violation.PRIVILEGED_COMMAND, "/allow/commands/0"),
                // kinds
                rule("rules without actions", BARK, d -> remove(d, "/actions"), "/actions", Violation.ACTIONS_REQUIRED),
                rule("llm without instructions", LLM, d -> remove(d, "/instructions"), "/instructions",
                        Violation.INSTRUCTIONS_REQUIRED),
                // triggers
                rule("cron with seconds", WEEKDAY_SCHEDULE, d -> set(d, "/triggers/0/cron", "\"0 0 8 * * 1-5\""),
                        "/triggers/0/cron", Violation.INVALID_CRON),
                rule("cron minute 61", WEEKDAY_SCHEDULE, d -> set(d, "/triggers/0/cron", "\"61 8 * * 1-5\""),
                        "/triggers/0/cron", Violation.INVALID_CRON),
                rule("cron gibberish", WEEKDAY_SCHEDULE, d -> set(d, "/triggers/0/cron", "\"every morning\""),
                        "/triggers/0/cron", Violation.INVALID_CRON),
                rule("schedule time zone unknown", WEEKDAY_SCHEDULE, d -> set(d, "/triggers/0/timeZone", "\"Mars/Olympus\""),
                        "/triggers/0/timeZone", Violation.INVALID_TIME_ZONE),
                rule("event filter time zone unknown", GOOD_MORNING,
                        d -> set(d, "/triggers/0/when/timeZone", "\"CEST+99\""),
                        "/triggers/0/when/timeZone", Violation.INVALID_TIME_ZONE),
                rule("hours reversed", GOOD_MORNING, d -> set(d, "/triggers/0/when/hours", "[22, 6]"),
                        "/triggers/0/when/hours", Violation.INVALID_HOURS),
                rule("trigger on an unbound gadget", BARK, d -> set(d, "/triggers/0/gadget", "\"rover-1\""),
                        "/triggers/0/gadget", Violation.TRIGGER_GADGET_NOT_BOUND),
                rule("trigger on an event the gadget lacks", BARK, d -> set(d, "/triggers/0/event", "\"exploded\""),
                        "/triggers/0/event", Violation.UNKNOWN_EVENT),
                // limits
                rule("runsPerHour over the limit", BARK, d -> set(d, "/budget/runsPerHour", "5000"),
                        "/budget/runsPerHour", Violation.BUDGET_EXCEEDS_LIMIT),
                rule("tokensPerRun far beyond int", BARK, d -> set(d, "/budget/tokensPerRun", "1000000000000"),
                        "/budget/tokensPerRun", Violation.BUDGET_EXCEEDS_LIMIT),
                rule("70 KiB state", BARK, d -> set(d, "/state", "{\"blob\": \"" + "s".repeat(70 * 1024) + "\"}"),
                        "/state", Violation.STATE_TOO_LARGE));
    }

    @Test
    void theTableHoldsAtLeastFortyCases() {
        assertThat(malformed()).hasSizeGreaterThanOrEqualTo(40);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void refusedNamingThePath(Case malformed) {
        Validation result = underTest.validate(malformed.definition(), ALICE);

        assertThat(result).isInstanceOfSatisfying(Validation.Invalid.class, invalid ->
                assertThat(invalid.violations())
                        .extracting(Violation::path, Violation::code)
                        .contains(tuple(malformed.path(), malformed.code())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void refusedForThatReasonOnly(Case malformed) {
        // A case that also broke something else would not prove the rule it names.
        List<String> expected = new ArrayList<>(malformed.alsoAt());
        expected.add(malformed.path());
        Validation result = underTest.validate(malformed.definition(), ALICE);

        assertThat(result).isInstanceOfSatisfying(Validation.Invalid.class, invalid ->
                assertThat(invalid.violations())
                        .extracting(Violation::path)
                        .containsOnlyElementsOf(expected));
    }

    private static String seventeenGadgets() {
        StringBuilder json = new StringBuilder("[\"desk-1\"");
        for (int i = 2; i <= 17; i++) {
            json.append(", \"desk-").append(i).append('"');
        }
        return json.append(']').toString();
    }
}
