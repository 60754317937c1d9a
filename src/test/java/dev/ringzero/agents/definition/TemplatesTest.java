package dev.ringzero.agents.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TemplatesTest {

    private static final Map<String, Object> CONTEXT = Map.of(
            "event", Map.of("name", "shaken", "data", Map.of("strength", "hard", "g", 2.5, "axes", List.of("x", "y"))),
            "gadget", Map.of("id", "desk-1", "name", "Desk bot"),
            "state", Map.of("count", 3, "owner", Map.of("name", "Alice")),
            "run", Map.of("id", "run-42"));

    @Test
    void rendersAValue() {
        assertThat(Templates.render("Woof ({{event.data.strength}})", CONTEXT)).isEqualTo("Woof (hard)");
    }

    @Test
    void rendersNestedPathsNumbersAndSeveralTags() {
        assertThat(Templates.render("{{state.owner.name}} shook {{gadget.name}} at {{event.data.g}} g, {{state.count}} times",
                CONTEXT)).isEqualTo("Alice shook Desk bot at 2.5 g, 3 times");
    }

    @Test
    void toleratesSpacesInsideTags() {
        assertThat(Templates.render("{{ run.id }}", CONTEXT)).isEqualTo("run-42");
    }

    @Test
    void rendersAListElementByIndex() {
        assertThat(Templates.render("{{event.data.axes.1}}", CONTEXT)).isEqualTo("y");
    }

    @Test
    void rendersAMapAsJson() {
        assertThat(Templates.render("{{state.owner}}", CONTEXT)).isEqualTo("{\"name\":\"Alice\"}");
    }

    @Test
    void missingValuesRenderEmpty() {
        assertThat(Templates.render("[{{event.data.orientation}}|{{trigger.kind}}|{{state.a.b.c}}]", CONTEXT))
                .isEqualTo("[||]");
    }

    @Test
    void nullValuesRenderEmpty() {
        HashMap<String, Object> state = new HashMap<>();
        state.put("last", null);

        assertThat(Templates.render("last={{state.last}}", Map.of("state", state))).isEqualTo("last=");
    }

    @Test
    void doesNotEscapeHtml() {
        Map<String, Object> context = Map.of("event", Map.of("data", Map.of("text", "<b>Tom & Jerry's \"show\"</b>")));

        assertThat(Templates.render("{{event.data.text}}", context)).isEqualTo("<b>Tom & Jerry's \"show\"</b>");
        assertThat(Templates.render("{{{event.data.text}}}", context)).isEqualTo("<b>Tom & Jerry's \"show\"</b>");
    }

    @Test
    void readsJsonNodesInTheContext() {
        Map<String, Object> context = Map.of("event", Fixtures.value("{\"data\": {\"orientation\": \"upright\"}}"));

        assertThat(Templates.render("held {{event.data.orientation}}", context)).isEqualTo("held upright");
    }

    @Test
    void neverReachesIntoObjectsByReflection() {
        // jmustache's default collector would answer {{gadget.class.name}} with java.lang.String.
        Map<String, Object> context = Map.of("gadget", "desk-1");

        assertThat(Templates.render("[{{gadget.class.name}}|{{gadget.bytes}}|{{gadget.length}}]", context))
                .isEqualTo("[||]");
    }

    @Test
    void textWithoutTagsIsReturnedAsIs() {
        assertThat(Templates.render("https://example.org/bark.mp3?a=1&b=<2>", CONTEXT))
                .isEqualTo("https://example.org/bark.mp3?a=1&b=<2>");
        assertThat(Templates.isTemplate("plain")).isFalse();
        assertThat(Templates.isTemplate("a {{b}}")).isTrue();
    }

    @Test
    void aTemplateThatFailsTheCheckIsNotRendered() {
        Map<String, Object> context = Map.of("event", Map.of("list", List.of("a", "b")));

        assertThat(Templates.render("{{#event.list}}{{.}}{{/event.list}}", context))
                .isEqualTo("{{#event.list}}{{.}}{{/event.list}}");
        assertThat(Templates.render("{{event.data", context)).isEqualTo("{{event.data");
    }

    @Test
    void renderParamsRendersStringsAtAnyDepthAndLeavesOtherValues() {
        Map<String, Object> params = Map.of(
                "text", "Hi {{state.owner.name}}",
                "duration_ms", 500,
                "loud", true,
                "style", Map.of("caption", "{{event.name}}", "lines", List.of("{{gadget.id}}", 7)));

        Map<String, Object> rendered = Templates.renderParams(params, CONTEXT);

        assertThat(rendered).containsEntry("text", "Hi Alice")
                .containsEntry("duration_ms", 500)
                .containsEntry("loud", true)
                .containsEntry("style", Map.of("caption", "shaken", "lines", List.of("desk-1", 7)));
    }

    @Test
    void acceptsPlainVariablesOverKnownRoots() {
        assertThat(Templates.check("{{event.data.strength}} {{{gadget.name}}} {{state.x_1.y}} {{run.id}} {{trigger.kind}}",
                "/p")).isEmpty();
        assertThat(Templates.check("no tags at all", "/p")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{{T(java.lang.Runtime)}}",
            "{{T(java.lang.Runtime).getRuntime().exec('id')}}",
            "${{event.getClass()}}",
            "{{#lambda}}x{{/lambda}}",
            "{{#lambda}}",
            "{{^event.data}}none{{/event.data}}",
            "{{>partial}}",
            "{{<parent}}{{/parent}}",
            "{{=<% %>=}}<%event.x%>",
            "{{.}}",
            "{{-first}}",
            "{{event.data[0]}}",
            "{{event..data}}",
            "{{event.data}",
            "{{}}"
    })
    void refusesAnythingButAPlainVariable(String template) {
        assertThat(Templates.check(template, "/actions/0/params/text"))
                .extracting(Violation::path, Violation::code)
                .containsExactly(tuple("/actions/0/params/text", Violation.TEMPLATE_INVALID));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{{env.HOME}}", "{{this}}", "{{system.props}}", "{{Event.data}}"})
    void refusesUnknownRoots(String template) {
        assertThat(Templates.check(template, "/x"))
                .extracting(Violation::code)
                .containsExactly(Violation.TEMPLATE_UNKNOWN_ROOT);
    }

    @Test
    void reportsEveryBadTagInOneTemplate() {
        assertThat(Templates.check("{{env.a}} {{secret.b}} {{event.c}}", "/x")).hasSize(2);
    }
}
