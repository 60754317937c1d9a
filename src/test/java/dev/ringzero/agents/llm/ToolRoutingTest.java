package dev.ringzero.agents.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.gadgets.CommandSpec;
import dev.ringzero.gadgets.RegisteredCommands;
import org.junit.jupiter.api.Test;

/** {@link ToolRouting} and {@link SessionTools}: what the model sees, and where its calls go. */
class ToolRoutingTest {

    private static final CommandSpec SAY = new CommandSpec("speaker.say", "Say a short text",
            Map.of("text", new CommandSpec.ParamSpec("string", "what to say")),
            Map.of("volume", new CommandSpec.ParamSpec("integer", null)), 30_000);

    private static AgentSpec spec(List<String> gadgets, List<String> commands, List<String> tools,
            List<String> intents) {
        return new AgentSpec("brief", null, gadgets, AgentSpec.Kind.LLM, List.of(), List.of(), "be brief",
                new AgentSpec.Allow(commands, tools, intents, false), null, null, 0, true, null, false);
    }

    private static RegisteredCommands offering(String... gadgets) {
        return (gadget, command) -> List.of(gadgets).contains(gadget) && command.equals("speaker.say")
                ? Optional.of(SAY) : Optional.empty();
    }

    private final AgentSpec oneBot = spec(List.of("desk-1"), List.of("speaker.say"), List.of("state.set"),
            List.of("email.send"));

    private static ToolRouting.Route route(String name, String arguments, AgentSpec spec, RegisteredCommands commands) {
        return ToolRouting.route(new ToolCall("c1", name, arguments), spec, commands);
    }

    @Test
    void theModelSeesExactlyTheAllowlistWithTheGadgetsParameters() throws Exception {
        List<ToolSpec> tools = SessionTools.of(oneBot, offering("desk-1"));

        assertThat(tools).extracting(ToolSpec::name).containsExactly("speaker__say", "state__set", "email__send");
        var schema = new ObjectMapper().readTree(tools.get(0).inputSchema());
        assertThat(schema.path("properties").path("text").path("type").asText()).isEqualTo("string");
        assertThat(schema.path("properties").path("volume").path("type").asText()).isEqualTo("integer");
        assertThat(schema.path("required")).extracting(Object::toString).containsExactly("\"text\"");
        assertThat(schema.path("properties").has(SessionTools.GADGET)).isFalse();
    }

    @Test
    void aCommandNoBoundGadgetRegistersIsNotOffered() {
        assertThat(SessionTools.of(oneBot, offering())).extracting(ToolSpec::name)
                .containsExactly("state__set", "email__send");
    }

    @Test
    void withTwoGadgetsOfferingItTheModelMustSayWhich() throws Exception {
        AgentSpec twoBots = spec(List.of("desk-1", "desk-2"), List.of("speaker.say"), List.of(), List.of());
        var schema = new ObjectMapper().readTree(SessionTools.of(twoBots, offering("desk-1", "desk-2")).get(0)
                .inputSchema());

        assertThat(schema.path("required").toString()).contains(SessionTools.GADGET);
        assertThat(route("speaker__say", "{\"text\":\"hi\"}", twoBots, offering("desk-1", "desk-2")))
                .isInstanceOf(ToolRouting.Refused.class);
        assertThat(route("speaker__say", "{\"text\":\"hi\",\"target_gadget\":\"desk-2\"}", twoBots,
                offering("desk-1", "desk-2")))
                .isEqualTo(new ToolRouting.Command("desk-2", "speaker.say",
                        (com.fasterxml.jackson.databind.node.ObjectNode) new ObjectMapper().readTree("{\"text\":\"hi\"}")));
    }

    @Test
    void aCommandCallIsCheckedAgainstTheRegistration() {
        assertThat(route("speaker__say", "{\"text\":\"hi\"}", oneBot, offering("desk-1")))
                .isInstanceOf(ToolRouting.Command.class);
        assertThat(route("speaker__say", "{\"words\":\"hi\"}", oneBot, offering("desk-1")))
                .isInstanceOfSatisfying(ToolRouting.Refused.class, refused -> {
                    assertThat(refused.code()).isEqualTo("invalid_arguments");
                    assertThat(refused.message()).contains("'text'");
                });
        assertThat(route("speaker__say", "{\"text\":5}", oneBot, offering("desk-1")))
                .isInstanceOf(ToolRouting.Refused.class);
        assertThat(route("speaker__say", "{\"text\":\"hi\",\"target_gadget\":\"someone-elses\"}", oneBot,
                offering("desk-1"))).isInstanceOf(ToolRouting.Refused.class);
    }

    @Test
    void argumentsMustBeOneJsonObject() {
        for (String arguments : List.of("[1]", "\"text\"", "{\"text\":\"a\"} {}", "{oops")) {
            assertThat(route("speaker__say", arguments, oneBot, offering("desk-1")))
                    .as(arguments).isInstanceOfSatisfying(ToolRouting.Refused.class,
                            refused -> assertThat(refused.code()).isEqualTo("invalid_arguments"));
        }
    }

    @Test
    void aCommandOutsideTheAllowlistStillGoesToTheKernel() {
        // the kernel refuses it on the record; the session does not decide grants
        assertThat(route("chassis__drive", "{\"left\":1}", oneBot, offering("desk-1")))
                .isInstanceOfSatisfying(ToolRouting.Command.class,
                        command -> assertThat(command.command()).isEqualTo("chassis.drive"));
    }

    @Test
    void platformToolsAndIntentsAreRoutedByTheirNames() {
        assertThat(route("state__get", "", oneBot, offering("desk-1"))).isInstanceOf(ToolRouting.Tool.class);
        assertThat(route("webhook__post", "{}", oneBot, offering("desk-1"))).isInstanceOf(ToolRouting.Intent.class);
    }

    @Test
    void aNameNoToolCouldHaveIsUnknown() {
        for (String name : List.of("bark", "Speaker.Say", "", "speaker.say", "a__" + "b".repeat(80))) {
            assertThat(route(name, "{}", oneBot, offering("desk-1"))).as(name)
                    .isInstanceOfSatisfying(ToolRouting.Refused.class,
                            refused -> assertThat(refused.code()).isEqualTo("unknown_tool"));
        }
    }

    @Test
    void wireNamesGoBothWays() {
        assertThat(ToolNames.wire("speaker.play_url")).isEqualTo("speaker__play_url");
        assertThat(ToolNames.capability("speaker__play_url")).contains("speaker.play_url");
    }
}
