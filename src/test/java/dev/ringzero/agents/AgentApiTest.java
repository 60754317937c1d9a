package dev.ringzero.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.support.Api;
import dev.ringzero.support.Api.Response;
import dev.ringzero.support.Definitions;
import dev.ringzero.support.OwnerWithDeskBotTest;
import dev.ringzero.support.RealServices;
import org.camunda.bpm.engine.ManagementService;
import org.camunda.bpm.engine.RuntimeService;
import org.eclipse.paho.client.mqttv3.IMqttMessageListener;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;

/** The authoring API over REST: create, validate, revise, switch, dry-run, isolate. */
class AgentApiTest extends OwnerWithDeskBotTest {

    @Autowired
    RuntimeService runtime;
    @Autowired
    ManagementService management;

    private String create(String definition) {
        Response created = alice.post("/api/v1/gadget-agents", definition);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.json().path("id").asText();
    }

    @Test
    void theSeedsExamplesAreAccepted() {
        String g = bot.gadgetId();
        create(Definitions.barkWhenShakenHard(g, null));
        create("""
                {"apiVersion":"ringzero/v1","name":"Good morning","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"gadget.event","gadget":"%1$s","event":"picked_up",
                              "when":{"hours":[6,10],"timeZone":"Europe/Berlin"}}],
                 "actions":[{"gadget":"%1$s","command":"speaker.say","params":{"text":"Good morning"}}],
                 "allow":{"commands":["speaker.say"]}}""".formatted(g));
        create("""
                {"apiVersion":"ringzero/v1","name":"Weekday text","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"schedule","cron":"0 8 * * 1-5","timeZone":"Europe/Berlin"}],
                 "actions":[{"gadget":"%1$s","command":"display.show_text","params":{"text":"Stand-up at 9"}}],
                 "allow":{"commands":["display.show_text"]}}""".formatted(g));

        assertThat(alice.get("/api/v1/gadget-agents").json()).hasSize(3);
    }

    static Stream<Arguments> malformed() {
        String ok = "\"apiVersion\":\"ringzero/v1\",\"name\":\"x\",\"kind\":\"rules\"";
        return Stream.of(
                Arguments.of("missing gadgets", "{" + ok + ",\"triggers\":[{\"kind\":\"invoke\"}],\"allow\":{}}", "/gadgets"),
                Arguments.of("unknown field", "{" + ok + ",\"gadgets\":[\"G\"],\"triggers\":[{\"kind\":\"invoke\"}],"
                        + "\"allow\":{},\"actions\":[{\"gadget\":\"G\",\"command\":\"display.show_text\",\"params\":{\"text\":\"a\"}}],\"sudo\":true}", "/sudo"),
                Arguments.of("wrong type", "{" + ok + ",\"gadgets\":\"G\",\"triggers\":[{\"kind\":\"invoke\"}],\"allow\":{}}", "/gadgets"),
                Arguments.of("another owner's gadget", withAction("someone-else", "display.show_text", "{\"text\":\"a\"}", "", ""), "/gadgets/0"),
                Arguments.of("unregistered command", withAction("G", "speaker.explode", "{}", "", ""), "/actions/0/command"),
                Arguments.of("bad cron", withAction("G", "display.show_text", "{\"text\":\"a\"}",
                        ",{\"kind\":\"schedule\",\"cron\":\"61 * * * *\",\"timeZone\":\"UTC\"}", ""), "/triggers/1/cron"),
                Arguments.of("bad time zone", withAction("G", "display.show_text", "{\"text\":\"a\"}",
                        ",{\"kind\":\"schedule\",\"cron\":\"0 8 * * *\",\"timeZone\":\"Mars/Olympus\"}", ""), "/triggers/1/timeZone"),
                Arguments.of("template injection", withAction("G", "display.show_text",
                        "{\"text\":\"{{T(java.lang.Runtime)}}\"}", "", ""), "/actions/0/params/text"),
                Arguments.of("state over 64 KiB", withAction("G", "display.show_text", "{\"text\":\"a\"}", "",
                        ",\"state\":{\"big\":\"" + "x".repeat(70 * 1024) + "\"}"), "/state"),
                Arguments.of("physical without grant", withAction("G", "chassis.drive", "{\"left\":1,\"right\":1}", "", ""),
                        "/actions/0/command"),
                Arguments.of("missing required param", withAction("G", "display.show_text", "{}", "", ""), "/actions/0/params/text"),
                Arguments.of("privileged command", withAction("G", "device.ota", "{}", "", ""), "/actions/0/command"));
    }

    private static String withAction(String gadget, String command, String params, String moreTriggers, String more) {
        return ("{\"apiVersion\":\"ringzero/v1\",\"name\":\"x\",\"kind\":\"rules\",\"gadgets\":[\"%1$s\"],"
                + "\"triggers\":[{\"kind\":\"invoke\"}%4$s],\"actions\":[{\"gadget\":\"%1$s\",\"command\":\"%2$s\","
                + "\"params\":%3$s}],\"allow\":{\"commands\":[\"%2$s\"]}%5$s}")
                .formatted(gadget, command, params, moreTriggers, more);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void aMalformedDefinitionIsA400NamingThePathAndNothingIsStored(String name, String definition, String path) {
        Response response = alice.post("/api/v1/gadget-agents", definition.replace("\"G\"", "\"" + bot.gadgetId() + "\""));

        assertThat(response.status()).as(response.body()).isEqualTo(400);
        assertThat(response.isProblem()).isTrue();
        assertThat(response.json().path("errors").findValuesAsText("path")).as(response.body()).contains(path);
        assertThat(alice.get("/api/v1/gadget-agents").json()).isEmpty();
    }

    @Test
    void malformedJsonIsA400() {
        Response response = alice.post("/api/v1/gadget-agents", "{\"apiVersion\":");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.problemType()).endsWith("/malformed-request");
    }

    @Test
    void revisingBumpsTheRevisionAndKeepsThePreviousSpec() {
        String id = create(Definitions.barkWhenShakenHard(bot.gadgetId(), null));

        Response revised = alice.put("/api/v1/gadget-agents/" + id,
                Definitions.barkWhenShakenHard(bot.gadgetId(), null).replace("Bark when shaken", "Bark louder"));

        assertThat(revised.json().path("revision").asInt()).isEqualTo(2);
        assertThat(alice.get("/api/v1/gadget-agents/" + id).json().at("/spec/name").asText()).isEqualTo("Bark louder");
        assertThat(alice.get("/api/v1/gadget-agents/" + id + "/revisions/1").json().path("name").asText())
                .isEqualTo("Bark when shaken");
    }

    @Test
    void enableDisableAndDeleteSwitchTheAgent() {
        String id = create(Definitions.barkWhenShakenHard(bot.gadgetId(), null));

        assertThat(alice.post("/api/v1/gadget-agents/" + id + "/disable", null).json().path("enabled").asBoolean()).isFalse();
        assertThat(alice.post("/api/v1/gadget-agents/" + id + "/enable", null).json().path("enabled").asBoolean()).isTrue();
        assertThat(alice.delete("/api/v1/gadget-agents/" + id).status()).isEqualTo(204);
        assertThat(alice.get("/api/v1/gadget-agents/" + id).status()).isEqualTo(404);
    }

    @Test
    void anotherOwnersAgentIs404OnEveryRoute() {
        String id = create(Definitions.barkWhenShakenHard(bot.gadgetId(), null));
        Api bob = Api.at(port).newOwner("bob");
        String base = "/api/v1/gadget-agents/" + id;

        assertThat(Stream.of(bob.get(base), bob.put(base, Definitions.barkWhenShakenHard(bot.gadgetId(), null)),
                bob.post(base + "/enable", null), bob.post(base + "/disable", null), bob.post(base + "/dry-run", "{}"),
                bob.post(base + "/runs", "{}"), bob.get(base + "/runs"), bob.get(base + "/decisions"),
                bob.get(base + "/revisions/1"), bob.delete(base))).allSatisfy(r -> assertThat(r.status()).isEqualTo(404));
        assertThat(alice.get(base).status()).isEqualTo(200);
    }

    @Test
    void aDryRunReportsRenderedActionsAndVerdictsAndPublishesNothing() throws Exception {
        String id = create(Definitions.barkWhenShakenHard(bot.gadgetId(), null));
        List<String> invokes = new ArrayList<>();
        MqttClient witness = witness("ringzero/v1/gadgets/" + bot.gadgetId() + "/invoke", invokes);

        Response saved = alice.post("/api/v1/gadget-agents/" + id + "/dry-run", "{}");
        Response unsaved = alice.post("/api/v1/gadget-agents/dry-run", Definitions.barkWhenShakenHard(bot.gadgetId(), null));
        Response gentle = alice.post("/api/v1/gadget-agents/" + id + "/dry-run",
                "{\"trigger\":{\"kind\":\"gadget.event\",\"gadget\":{\"id\":\"" + bot.gadgetId()
                        + "\"},\"event\":{\"name\":\"shaken\",\"data\":{\"strength\":\"gentle\"}}}}");

        for (JsonNode report : List.of(saved.json(), unsaved.json())) {
            assertThat(report.at("/match/matched").asBoolean()).as(report.toString()).isTrue();
            assertThat(report.at("/actions/0/params/url").asText()).isEqualTo("https://example.org/bark.mp3?s=hard");
            assertThat(report.at("/actions/0/verdict/verdict").asText()).isEqualTo("allow");
            assertThat(report.at("/actions/0/outcome").asText()).isEqualTo("skipped_dry_run");
        }
        assertThat(gentle.json().at("/match/matched").asBoolean()).isFalse();
        assertThat(gentle.json().at("/match/filter").asText()).isEqualTo("data.strength");
        Thread.sleep(500);
        assertThat(invokes).isEmpty();
        assertThat(bot.invocations()).isEmpty();
        assertThat(alice.get("/api/v1/gadget-agents/" + id + "/runs").json()).isEmpty();
        witness.disconnect();
        witness.close();
    }

    @Test
    void aScheduledAgentGetsOneTimerWhichDisablingCancels() {
        String id = create("""
                {"apiVersion":"ringzero/v1","name":"Weekday text","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"schedule","cron":"0 8 * * 1-5","timeZone":"America/Los_Angeles"}],
                 "actions":[{"gadget":"%1$s","command":"display.show_text","params":{"text":"Stand-up"}}],
                 "allow":{"commands":["display.show_text"]}}""".formatted(bot.gadgetId()));

        var instance = runtime.createProcessInstanceQuery().processDefinitionKey("agent-schedule")
                .processInstanceBusinessKey(id).singleResult();
        assertThat(instance).isNotNull();
        var timer = management.createJobQuery().processInstanceId(instance.getId()).timers().singleResult();
        assertThat(timer.getDuedate().toInstant())
                .isEqualTo(Schedules.nextFire("0 8 * * 1-5", java.time.ZoneId.of("America/Los_Angeles"),
                        java.time.Instant.now().minus(Duration.ofMinutes(1))));

        alice.post("/api/v1/gadget-agents/" + id + "/disable", null);

        assertThat(runtime.createProcessInstanceQuery().processDefinitionKey("agent-schedule")
                .processInstanceBusinessKey(id).count()).isZero();
    }

    private static MqttClient witness(String topic, List<String> into) throws Exception {
        MqttClient client = new MqttClient(RealServices.mqttUrl(), "ringzero-platform-dryrun-witness", new MemoryPersistence());
        MqttConnectOptions options = new MqttConnectOptions();
        options.setUserName("ringzero-platform");
        options.setPassword(RealServices.MQTT_SERVICE_PASSWORD.toCharArray());
        client.connect(options);
        client.subscribe(new String[] {topic}, new int[] {1},
                new IMqttMessageListener[] {(t, message) -> into.add(new String(message.getPayload()))});
        return client;
    }
}
