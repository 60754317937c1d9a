package dev.ringzero.web.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.support.Api;
import dev.ringzero.support.Definitions;
import dev.ringzero.support.OwnerWithDeskBotTest;
import dev.ringzero.support.ScriptedModel;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The MCP server as an assistant uses it: the SDK's own client over real streamable HTTP against the
 * running platform, with the owner's token, through a whole authoring round, across owners, without a
 * token and with arguments a careless model sends.
 */
class McpServerTest extends OwnerWithDeskBotTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final List<McpSyncClient> clients = new ArrayList<>();

    @AfterEach
    void closeClients() {
        clients.forEach(McpSyncClient::closeGracefully);
    }

    private McpSyncClient connect(String token, List<McpSchema.ResourceContents> updates) {
        var transport = HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + port).endpoint("/mcp")
                .jsonMapper(new JacksonMcpJsonMapper(JSON))
                .httpRequestCustomizer((request, method, uri, body, context) -> {
                    if (token != null) {
                        request.header("Authorization", "Bearer " + token);
                    }
                })
                .build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30))
                .jsonSchemaValidator(new SchemaValidator(JSON))
                .resourcesUpdateConsumer(updates::addAll)
                .build();
        clients.add(client);
        client.initialize();
        return client;
    }

    private McpSyncClient connect(Api owner) {
        return connect(owner.token(), new CopyOnWriteArrayList<>());
    }

    private static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        return client.callTool(new McpSchema.CallToolRequest(tool, arguments));
    }

    /** The tool's answer as JSON (its text content), asserting whether it is an error. */
    private static JsonNode ok(McpSchema.CallToolResult result) {
        assertThat(result.isError()).as(text(result)).isFalse();
        return tree(result);
    }

    private static JsonNode failed(McpSchema.CallToolResult result) {
        assertThat(result.isError()).as(text(result)).isTrue();
        return tree(result);
    }

    private static JsonNode tree(McpSchema.CallToolResult result) {
        try {
            return JSON.readTree(text(result));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    private static Map<String, Object> definition(String json) {
        try {
            return JSON.readValue(json, Map.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aWholeAuthoringRoundFromGadgetsToARun() {
        McpSyncClient mcp = connect(alice);
        String g = bot.gadgetId();

        JsonNode gadgets = ok(call(mcp, "list_gadgets", Map.of())).path("gadgets");
        assertThat(gadgets).hasSize(1);
        assertThat(gadgets.get(0).path("id").asText()).isEqualTo(g);
        assertThat(gadgets.get(0).path("online").asBoolean()).isTrue();
        assertThat(gadgets.get(0).path("commands").has("speaker.play_url")).isTrue();
        assertThat(gadgets.get(0).path("events").toString()).contains("shaken");
        assertThat(ok(call(mcp, "get_definition_schema", Map.of())).path("$schema").asText()).contains("2020-12");
        assertThat(ok(call(mcp, "get_catalogue", Map.of())).path("intents").toString()).contains("email.send");

        // a first attempt with two mistakes: an event the bot never emits, a command it never registered
        String wrong = Definitions.barkWhenShakenHard(g, null).replace("\"shaken\"", "\"wobbled\"")
                .replace("\"command\":\"speaker.play_url\"", "\"command\":\"speaker.bark\"");
        JsonNode refused = failed(call(mcp, "create_agent", Map.of("definition", definition(wrong))));
        assertThat(refused.path("error").asText()).isEqualTo("invalid-definition");
        List<String> paths = refused.path("errors").findValuesAsText("path");
        assertThat(paths).contains("/triggers/0/event", "/actions/0/command");
        refused.path("errors").forEach(error -> {
            assertThat(error.path("code").asText()).isNotBlank();
            assertThat(error.path("message").asText()).isNotBlank();
        });
        assertThat(ok(call(mcp, "list_agents", Map.of())).path("agents")).isEmpty();

        // repaired, and saved switched off until its dry run looks right
        JsonNode created = ok(call(mcp, "create_agent",
                Map.of("definition", definition(Definitions.barkWhenShakenHard(g, "\"enabled\":false")))));
        String agent = created.path("id").asText();
        assertThat(created.path("enabled").asBoolean()).isFalse();

        JsonNode dry = ok(call(mcp, "dry_run", Map.of("agent", agent, "trigger", Map.of("kind", "gadget.event",
                "gadget", g, "event", "shaken", "data", Map.of("strength", "hard")))));
        assertThat(dry.path("match").path("matched").asBoolean()).as(dry.toString()).isTrue();
        assertThat(dry.path("actions").get(0).path("command").asText()).isEqualTo("speaker.play_url");
        assertThat(bot.speakerLog()).isEmpty();

        assertThat(ok(call(mcp, "enable_agent", Map.of("agent", agent))).path("enabled").asBoolean()).isTrue();

        bot.shake("hard");

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
                ok(call(mcp, "list_runs", Map.of("agent", agent))).path("runs").findValuesAsText("status"))
                .contains("succeeded"));
        String runId = ok(call(mcp, "list_runs", Map.of("agent", agent))).path("runs").get(0).path("id").asText();
        JsonNode run = ok(call(mcp, "get_run", Map.of("run", runId)));
        assertThat(run.path("actions").get(0).path("command").asText()).isEqualTo("speaker.play_url");
        assertThat(run.path("actions").get(0).path("outcome").asText()).isIn("completed", "accepted");
        JsonNode decisions = ok(call(mcp, "explain_runs", Map.of("agent", agent))).path("decisions");
        assertThat(decisions.findValuesAsText("runId")).contains(runId);
        assertThat(bot.speakerLog()).hasSize(1);
    }

    @Test
    void theDirectPathAndALiveTrialRunActOnTheRealGadget() {
        McpSyncClient mcp = connect(alice);
        JsonNode sent = ok(call(mcp, "send_command", Map.of("gadget", bot.gadgetId(), "command",
                "display.show_text", "params", Map.of("text", "hello from the assistant"))));
        assertThat(sent.path("outcome").asText()).isEqualTo("completed");
        assertThat(bot.screenText()).isEqualTo("hello from the assistant");

        JsonNode unregistered = failed(call(mcp, "send_command", Map.of("gadget", bot.gadgetId(), "command",
                "laser.fire")));
        assertThat(unregistered.path("error").asText()).isEqualTo("command-unregistered");

        String agent = ok(call(mcp, "create_agent", Map.of("definition",
                definition(Definitions.showTextWhenShaken(bot.gadgetId(), "{\"runsPerHour\":5}", "single")))))
                .path("id").asText();
        String runId = ok(call(mcp, "run_agent", Map.of("agent", agent))).path("runId").asText();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
                ok(call(mcp, "get_run", Map.of("run", runId))).path("status").asText()).isEqualTo("succeeded"));
        assertThat(ok(call(mcp, "list_gates", Map.of("state", "pending"))).path("gates")).isEmpty();
    }

    @Test
    void aDraftFromASentenceIsSavedOnlyWhenTheAssistantCreatesIt() {
        String marker = "mcp-draft-" + java.util.UUID.randomUUID();
        ScriptedModel.script(marker).then(ScriptedModel.Reply.answer(Definitions.barkWhenShakenHard(bot.gadgetId(),
                null))).then(ScriptedModel.Reply.raw(500, "{\"error\":{\"message\":\"boom\"}}"));
        McpSyncClient mcp = connect(alice);

        JsonNode draft = ok(call(mcp, "draft_agent", Map.of("text", "when my desk bot is shaken hard, bark " + marker)));
        assertThat(draft.path("valid").asBoolean()).as(draft.toString()).isTrue();
        assertThat(draft.path("dryRun").path("match").path("matched").asBoolean()).isTrue();
        assertThat(ok(call(mcp, "list_agents", Map.of())).path("agents")).isEmpty();

        ok(call(mcp, "create_agent", Map.of("definition", JSON.convertValue(draft.path("definition"), Map.class))));
        assertThat(ok(call(mcp, "list_agents", Map.of())).path("agents")).hasSize(1);

        assertThat(failed(call(mcp, "draft_agent", Map.of("text", "again " + marker))).path("error").asText())
                .isEqualTo("model-failed");
    }

    @Test
    void anLlmRunIsReadWithItsTranscript() {
        String marker = "mcp-llm-" + java.util.UUID.randomUUID();
        ScriptedModel.script(marker)
                .then(ScriptedModel.Reply.toolCalls(120, 30, "speaker__say", "{\"text\":\"Good morning\"}"))
                .then(ScriptedModel.Reply.answer("Said good morning.", 150, 10));
        McpSyncClient mcp = connect(alice);
        String agent = ok(call(mcp, "create_agent", Map.of("definition", definition("""
                {"apiVersion":"ringzero/v1","name":"Morning brief","gadgets":["%1$s"],"kind":"llm",
                 "triggers":[{"kind":"invoke"}],"instructions":"%2$s Say good morning through the speaker.",
                 "allow":{"commands":["speaker.say"]},"budget":{"maxRunSeconds":20}}""".formatted(bot.gadgetId(),
                marker))))).path("id").asText();

        String runId = ok(call(mcp, "run_agent", Map.of("agent", agent))).path("runId").asText();

        JsonNode run = await().atMost(Duration.ofSeconds(20)).until(() -> ok(call(mcp, "get_run", Map.of("run", runId))),
                view -> view.path("status").asText().equals("succeeded"));
        JsonNode session = run.path("session");
        assertThat(session.path("turns")).hasSize(2);
        assertThat(session.path("turns").get(0).path("toolCalls").findValuesAsText("verdict"))
                .containsExactly("action"); // a device command becomes a run action, sent by ring 0
        assertThat(run.path("actions").get(0).path("command").asText()).isEqualTo("speaker.say");
        assertThat(session.path("turns").get(1).path("text").asText()).isEqualTo("Said good morning.");
        assertThat(run.path("cost").path("tokens").asInt()).isEqualTo(310);
    }

    @Test
    void gatesAreListedForTheirOwnerAndNeverDecided() {
        String gate = alice.post("/api/v1/gates", "{\"intent\":\"inbox.post\",\"payload\":{\"text\":\"hi\"},"
                + "\"rationale\":\"test\"}").json().path("id").asText();
        McpSyncClient mcp = connect(alice);
        McpSyncClient bobs = connect(Api.at(port).newOwner("bob"));

        JsonNode pending = ok(call(mcp, "list_gates", Map.of("state", "pending"))).path("gates");
        assertThat(pending.findValuesAsText("id")).containsExactly(gate);
        assertThat(pending.get(0).path("payload").path("text").asText()).isEqualTo("hi");
        assertThat(ok(call(bobs, "list_gates", Map.of())).path("gates")).isEmpty();

        McpSchema.Tool listGates = mcp.listTools().tools().stream().filter(tool -> tool.name().equals("list_gates"))
                .findFirst().orElseThrow();
        assertThat(listGates.description()).contains("Read-only").contains("Tasklist");
        assertThat(listGates.annotations().readOnlyHint()).isTrue();
        assertThat(alice.get("/api/v1/gates/" + gate).json().path("state").asText()).isEqualTo("pending");
    }

    @Test
    void theInboxIsAResourceItsOwnerHearsAbout() {
        List<McpSchema.ResourceContents> aliceHeard = new CopyOnWriteArrayList<>();
        McpSyncClient mcp = connect(alice.token(), aliceHeard);
        Api bob = Api.at(port).newOwner("bob");
        List<McpSchema.ResourceContents> bobHeard = new CopyOnWriteArrayList<>();
        McpSyncClient bobs = connect(bob.token(), bobHeard);

        assertThat(mcp.listResources().resources()).extracting(McpSchema.Resource::uri)
                .contains(InboxResource.URI);
        mcp.subscribeResource(new McpSchema.SubscribeRequest(InboxResource.URI));
        bobs.subscribeResource(new McpSchema.SubscribeRequest(InboxResource.URI));

        bot.pickUp(); // no agent takes it: it lands in Alice's inbox

        await().atMost(Duration.ofSeconds(20)).until(() -> !aliceHeard.isEmpty());
        String inbox = ((McpSchema.TextResourceContents) mcp.readResource(
                new McpSchema.ReadResourceRequest(InboxResource.URI)).contents().get(0)).text();
        assertThat(inbox).contains("picked_up");
        assertThat(((McpSchema.TextResourceContents) aliceHeard.get(0)).text()).contains("picked_up");
        assertThat(ok(call(mcp, "read_inbox", Map.of())).path("messages").toString()).contains("picked_up");

        String bobsInbox = ((McpSchema.TextResourceContents) bobs.readResource(
                new McpSchema.ReadResourceRequest(InboxResource.URI)).contents().get(0)).text();
        assertThat(bobsInbox).doesNotContain("picked_up");
        assertThat(bobHeard).isEmpty();
    }

    @Test
    void anotherOwnersIdsGetNothing() {
        McpSyncClient mcp = connect(alice);
        String agent = ok(call(mcp, "create_agent", Map.of("definition",
                definition(Definitions.barkWhenShakenHard(bot.gadgetId(), "\"enabled\":false"))))).path("id").asText();
        String runId = ok(call(mcp, "run_agent", Map.of("agent", agent))).path("runId").asText();

        McpSyncClient bobs = connect(Api.at(port).newOwner("bob"));
        assertThat(ok(call(bobs, "list_gadgets", Map.of())).path("gadgets")).isEmpty();
        assertThat(ok(call(bobs, "list_agents", Map.of())).path("agents")).isEmpty();
        for (var attempt : List.<Map.Entry<String, Map<String, Object>>>of(
                Map.entry("get_agent", Map.of("agent", agent)),
                Map.entry("enable_agent", Map.of("agent", agent)),
                Map.entry("disable_agent", Map.of("agent", agent)),
                Map.entry("update_agent", Map.of("agent", agent, "definition",
                        definition(Definitions.barkWhenShakenHard(bot.gadgetId(), null)))),
                Map.entry("delete_agent", Map.of("agent", agent)),
                Map.entry("dry_run", Map.of("agent", agent)),
                Map.entry("run_agent", Map.of("agent", agent)),
                Map.entry("list_runs", Map.of("agent", agent)),
                Map.entry("explain_runs", Map.of("agent", agent)),
                Map.entry("get_run", Map.of("run", runId)),
                Map.entry("send_command", Map.of("gadget", bot.gadgetId(), "command", "display.show_text",
                        "params", Map.of("text", "not yours"))))) {
            JsonNode refused = failed(call(bobs, attempt.getKey(), attempt.getValue()));
            assertThat(refused.path("error").asText()).as(attempt.getKey()).isEqualTo("not-found");
        }
        // a definition naming Alice's gadget is invalid for Bob, and says only that the gadget is unknown
        JsonNode foreign = failed(call(bobs, "create_agent", Map.of("definition",
                definition(Definitions.barkWhenShakenHard(bot.gadgetId(), null)))));
        assertThat(foreign.path("error").asText()).isEqualTo("invalid-definition");
        assertThat(bot.screenText()).isNotEqualTo("not yours");
        JsonNode untouched = ok(call(mcp, "get_agent", Map.of("agent", agent)));
        assertThat(untouched.path("enabled").asBoolean()).isFalse();
        assertThat(untouched.path("revision").asInt()).isEqualTo(1);
    }

    @Test
    void withoutAValidTokenNothingIsServed() throws Exception {
        String initialize = """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
                 "capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}""";
        assertThat(post(null, null, initialize).statusCode()).isEqualTo(401);
        assertThat(post("rz_not-a-token", null, initialize).statusCode()).isEqualTo(401);
        String gatewayToken = Api.at(port).basic("admin", ADMIN_PASSWORD)
                .post("/api/v1/admin/service-tokens", "{\"role\":\"gateway\"}").json().path("token").asText();
        assertThat(post(gatewayToken, null, initialize).statusCode()).isEqualTo(403);
        // a web page holding a token (an Origin header) is no MCP client unless its origin is allowed
        HttpResponse<String> fromAPage = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/mcp")).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("Origin", "http://evil.example")
                .header("Authorization", "Bearer " + alice.token()).POST(HttpRequest.BodyPublishers.ofString(initialize))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(fromAPage.statusCode()).isEqualTo(403);
        assertThat(fromAPage.headers().firstValue("Mcp-Session-Id")).isEmpty();
        HttpResponse<String> get = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp"))
                .header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(401);
        assertThatThrownBy(() -> connect(null, new CopyOnWriteArrayList<>())).isInstanceOf(RuntimeException.class);
    }

    @Test
    void aSessionStaysWithTheOwnerWhoOpenedIt() throws Exception {
        String initialize = """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
                 "capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}""";
        HttpResponse<String> opened = post(alice.token(), null, initialize);
        assertThat(opened.statusCode()).as(opened.body()).isEqualTo(200);
        String session = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();

        Api bob = Api.at(port).newOwner("bob");
        String listGadgets = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"list_gadgets\",\"arguments\":{}}}";
        assertThat(post(bob.token(), session, listGadgets).statusCode()).isEqualTo(404);
        HttpResponse<String> own = post(alice.token(), session, listGadgets);
        assertThat(own.statusCode()).isEqualTo(200);
        assertThat(own.body()).contains(bot.gadgetId());
    }

    @Test
    void badArgumentsAreToolErrorsThatSayWhatIsWrong() throws Exception {
        McpSyncClient mcp = connect(alice);
        assertThat(failed(call(mcp, "create_agent", Map.of("definition", 42))).path("message").asText())
                .contains("'definition'").contains("JSON object");
        assertThat(failed(call(mcp, "create_agent", Map.of("definition", "{not json"))).path("error").asText())
                .isEqualTo("invalid-arguments");
        assertThat(failed(call(mcp, "create_agent", Map.of())).path("message").asText()).contains("required");
        assertThat(failed(call(mcp, "get_agent", Map.of("agent", 7))).path("error").asText())
                .isEqualTo("invalid-arguments");
        assertThat(failed(call(mcp, "list_gadgets", Map.of("owner", "someone-else"))).path("message").asText())
                .contains("unknown argument 'owner'");
        assertThat(failed(call(mcp, "list_runs", Map.of("agent", "x", "limit", "many"))).path("error").asText())
                .isEqualTo("invalid-arguments");
        assertThat(failed(call(mcp, "dry_run", Map.of())).path("message").asText()).contains("exactly one");
        assertThat(failed(call(mcp, "dry_run", Map.of("definition", Map.of("name", "half a definition"))))
                .path("error").asText()).isEqualTo("invalid-definition");
        assertThat(failed(call(mcp, "list_gates", Map.of("state", "sideways"))).path("error").asText())
                .isEqualTo("invalid-state");
        assertThat(failed(call(mcp, "get_run", Map.of("run", "no-such-run"))).path("error").asText())
                .isEqualTo("not-found");
        // a definition passed as a JSON string is read as the object it holds
        assertThat(failed(call(mcp, "create_agent", Map.of("definition", "{\"name\":\"x\"}"))).path("error")
                .asText()).isEqualTo("invalid-definition");
        // there is no tool that decides a gate
        assertThat(mcp.listTools().tools()).extracting(McpSchema.Tool::name).noneMatch(name -> name.contains("approve"));
        assertThatThrownBy(() -> call(mcp, "approve_gate", Map.of("gate", "g")))
                .isInstanceOf(io.modelcontextprotocol.spec.McpError.class).hasMessageContaining("Unknown tool");

        String initialize = """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
                 "capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}""";
        String session = post(alice.token(), null, initialize).headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(post(alice.token(), session, "{\"jsonrpc\":\"2.0\",\"id\":").statusCode()).isBetween(400, 499);
        assertThat(post(alice.token(), session, "[1,2,3]").statusCode()).isLessThan(500);
        HttpResponse<String> nullArguments = post(alice.token(), session, "{\"jsonrpc\":\"2.0\",\"id\":3,"
                + "\"method\":\"tools/call\",\"params\":{\"name\":\"get_agent\",\"arguments\":null}}");
        assertThat(nullArguments.statusCode()).isEqualTo(200);
        assertThat(nullArguments.body()).contains("\"isError\":true").contains("required");
    }

    private HttpResponse<String> post(String token, String session, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
