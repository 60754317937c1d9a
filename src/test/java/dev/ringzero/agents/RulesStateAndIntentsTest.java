package dev.ringzero.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.fasterxml.jackson.databind.JsonNode;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpServer;
import dev.ringzero.agents.runs.RunStatus;
import dev.ringzero.support.Agents;
import dev.ringzero.support.Api;
import dev.ringzero.support.GateMails;
import dev.ringzero.support.OwnerWithDeskBotTest;
import dev.ringzero.support.RealServices;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Rules agents that remember and reach out, end to end: state actions written with
 * compare-and-set and read back by templates and the state routes; ring-3 actions through the
 * kernel, the trust ladder and a gate, executed once and only after approval; a run's cost.
 */
class RulesStateAndIntentsTest extends OwnerWithDeskBotTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static GreenMail smtp;

    @BeforeAll
    static void startSmtp() {
        smtp = new GreenMail(new ServerSetup(RealServices.smtpPort(), "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
    }

    @AfterAll
    static void stopSmtp() {
        smtp.stop();
    }

    /**
     * Counts its runs in state and shows the count: "shaken 3 times". maxParallel is above the 12
     * overlapping runs below: on a loaded machine more than 8 may be active at once, and a run
     * dropped for concurrency would not be the lost update this test looks for.
     */
    private String counter(String concurrency) {
        return Agents.create(alice, """
                {"apiVersion":"ringzero/v1","name":"Count shakes","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"invoke"},{"kind":"gadget.event","gadget":"%1$s","event":"shaken"}],
                 "state":{"count":0},
                 "actions":[{"do":"state.increment","params":{"key":"count"}},
                            {"gadget":"%1$s","command":"display.show_text","params":{"text":"shaken {{state.count}} times"}}],
                 "allow":{"commands":["display.show_text"]},"budget":{"runsPerHour":100},
                 "concurrency":"%2$s","maxParallel":16}
                """.formatted(bot.gadgetId(), concurrency));
    }

    private void awaitTerminal(String runId) {
        Awaitility.await().atMost(WAIT).until(() -> {
            String status = Agents.run(alice, runId).path("status").asText();
            return !status.isEmpty() && !RunStatus.ACTIVE.contains(status);
        });
    }

    @Test
    void aStateWriteIsSeenByTheNextActionsTemplateAndByTheStateRoute() {
        String agent = counter("queued");

        String first = Agents.runNow(alice, agent);
        awaitTerminal(first);
        String second = Agents.runNow(alice, agent);
        awaitTerminal(second);

        JsonNode run = Agents.run(alice, second);
        assertThat(run.path("status").asText()).as(run.toString()).isEqualTo("succeeded");
        assertThat(run.at("/actions/0/command").asText()).isEqualTo("state.increment");
        assertThat(run.at("/actions/0/outcome").asText()).isEqualTo("completed");
        assertThat(run.at("/actions/0/gadget").isNull() || run.at("/actions/0/gadget").isMissingNode()).isTrue();
        assertThat(run.at("/actions/1/params/text").asText()).isEqualTo("shaken 2 times");
        Awaitility.await().atMost(WAIT).until(() -> bot.screenText().equals("shaken 2 times"));
        assertThat(run.at("/cost/commandsSent").asInt()).isEqualTo(1);
        assertThat(run.at("/cost/tokens").asInt()).isZero();
        assertThat(run.at("/cost/durationMs").asLong()).isNotNegative();

        JsonNode state = alice.get("/api/v1/gadget-agents/" + agent + "/state").json();
        assertThat(state.at("/state/count").asInt()).isEqualTo(2);
        assertThat(state.path("version").asLong()).isEqualTo(2);
    }

    @Test
    void overlappingRunsOfAParallelAgentLoseNoIncrement() throws Exception {
        String agent = counter("parallel");
        int runs = 12;
        ExecutorService callers = Executors.newFixedThreadPool(4);
        List<String> runIds = new ArrayList<>();
        try {
            List<Future<String>> started = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                started.add(callers.submit(() -> Agents.runNow(alice, agent)));
            }
            for (Future<String> run : started) {
                runIds.add(run.get());
            }
        } finally {
            callers.shutdown();
        }
        runIds.forEach(this::awaitTerminal);

        assertThat(runIds).allSatisfy(runId -> {
            JsonNode run = Agents.run(alice, runId);
            assertThat(run.at("/actions/0/outcome").asText()).as(run.toString()).isEqualTo("completed");
        });
        JsonNode state = alice.get("/api/v1/gadget-agents/" + agent + "/state").json();
        assertThat(state.at("/state/count").asInt()).isEqualTo(runs);
        assertThat(state.path("version").asLong()).isEqualTo(runs);
    }

    @Test
    void resettingStateGoesBackToTheDefinitionsInitialStateAndAnotherOwnerSeesNothing() {
        String agent = counter("queued");
        awaitTerminal(Agents.runNow(alice, agent));
        Api mallory = Api.at(port).newOwner("mallory");

        assertThat(mallory.get("/api/v1/gadget-agents/" + agent + "/state").status()).isEqualTo(404);
        assertThat(mallory.delete("/api/v1/gadget-agents/" + agent + "/state").status()).isEqualTo(404);
        assertThat(alice.get("/api/v1/gadget-agents/" + agent + "/state").json().at("/state/count").asInt())
                .isEqualTo(1);

        Api.Response reset = alice.delete("/api/v1/gadget-agents/" + agent + "/state");
        assertThat(reset.status()).as(reset.body()).isEqualTo(200);
        JsonNode state = alice.get("/api/v1/gadget-agents/" + agent + "/state").json();
        assertThat(state.at("/state/count").asInt()).isZero();
        assertThat(state.path("version").asLong()).isGreaterThan(1);
        assertThat(alice.get("/api/v1/gadget-agents/no-such-agent/state").status()).isEqualTo(404);
    }

    @Test
    void aDefinitionThatSendsMailWithoutTheIntentGrantIsRefusedWithItsPath() {
        Api.Response refused = alice.post("/api/v1/gadget-agents", """
                {"apiVersion":"ringzero/v1","name":"Mailer","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"invoke"}],
                 "actions":[{"do":"email.send","params":{"to":["ann@ourco.example"],"subject":"hi","body":"x"}}],
                 "allow":{"commands":[]}}
                """.formatted(bot.gadgetId()));

        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).contains("/actions/0/do").contains("intent_not_allowed");
    }

    @Test
    void anEmailActionReachesTheMailServerOnlyAfterApprovalAndOnce() {
        String agent = Agents.create(alice, """
                {"apiVersion":"ringzero/v1","name":"Tell Ann","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"invoke"}],"state":{"count":0},
                 "actions":[{"do":"state.increment","params":{"key":"count"}},
                            {"do":"email.send","params":{"to":["ann@elsewhere.example"],
                             "subject":"Shaken {{state.count}} times","body":"The desk bot was shaken."}}],
                 "allow":{"commands":[],"intents":["email.send"]}}
                """.formatted(bot.gadgetId()));

        String runId = Agents.runNow(alice, agent);
        awaitTerminal(runId);
        JsonNode run = Agents.run(alice, runId);
        assertThat(run.path("status").asText()).as(run.toString()).isEqualTo("succeeded");
        assertThat(run.at("/actions/1/outcome").asText()).isEqualTo("gated");
        String gateId = run.at("/actions/1/result/gate").asText();
        JsonNode gate = alice.get("/api/v1/gates/" + gateId).json();
        assertThat(gate.path("state").asText()).isEqualTo("pending");
        assertThat(gate.at("/payload/subject").asText()).isEqualTo("Shaken 1 times");
        assertThat(sentTo(gateId)).isEmpty();

        assertThat(alice.post("/api/v1/gates/" + gateId + "/approve", "{}").status()).isEqualTo(200);
        Awaitility.await().atMost(WAIT).until(() ->
                "executed".equals(alice.get("/api/v1/gates/" + gateId).json().path("state").asText()));
        assertThat(alice.post("/api/v1/gates/" + gateId + "/approve", "{}").status()).isEqualTo(409);

        List<MimeMessage> sent = sentTo(gateId);
        assertThat(sent).hasSize(1);
        assertThat(subject(sent.get(0))).isEqualTo("Shaken 1 times");
    }

    @Test
    void aWebhookActionToAHostOffTheOwnersAllowlistIsRefusedAndOneOnItIsPosted() throws IOException {
        List<String> bodies = new CopyOnWriteArrayList<>();
        HttpServer hook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hook.createContext("/hook", exchange -> {
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        hook.start();
        try {
            String agent = Agents.create(alice, """
                    {"apiVersion":"ringzero/v1","name":"Report","gadgets":["%1$s"],"kind":"rules",
                     "triggers":[{"kind":"invoke"}],
                     "actions":[{"do":"webhook.post","params":{"url":"http://127.0.0.1:%2$d/hook",
                                 "body":{"from":"{{trigger.kind}}"}}}],
                     "allow":{"commands":[],"intents":["webhook.post"]}}
                    """.formatted(bot.gadgetId(), hook.getAddress().getPort()));
            assertThat(alice.post("/api/v1/trust-rules", "{\"intent\":\"webhook.post\",\"level\":\"auto\"}")
                    .status()).isEqualTo(201);

            String refused = Agents.runNow(alice, agent);
            awaitTerminal(refused);
            JsonNode run = Agents.run(alice, refused);
            assertThat(run.path("status").asText()).as(run.toString()).isEqualTo("failed");
            assertThat(run.at("/actions/0/outcome").asText()).isEqualTo("denied");
            assertThat(run.toString()).contains("allowlist");

            assertThat(alice.post("/api/v1/webhook-hosts", "{\"host\":\"127.0.0.1\"}").status()).isEqualTo(201);
            String posted = Agents.runNow(alice, agent);
            awaitTerminal(posted);
            JsonNode accepted = Agents.run(alice, posted);
            assertThat(accepted.path("status").asText()).as(accepted.toString()).isEqualTo("succeeded");
            assertThat(accepted.at("/actions/0/outcome").asText()).isEqualTo("accepted");
            String gateId = accepted.at("/actions/0/result/gate").asText();
            Awaitility.await().atMost(WAIT).until(() ->
                    "executed".equals(alice.get("/api/v1/gates/" + gateId).json().path("state").asText()));
            assertThat(bodies).containsExactly("{\"from\":\"invoke\"}");
        } finally {
            hook.stop(0);
        }
    }

    @Test
    void onGateRunsTheListForTheGatesOutcomeAsAContinuation() {
        String agent = Agents.create(alice, """
                {"apiVersion":"ringzero/v1","name":"Ask, then say","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"invoke"}],
                 "actions":[{"do":"email.send","params":{"to":["ann@elsewhere.example"],"subject":"hello",
                             "body":"from the desk"}}],
                 "onGate":{"approved":[{"gadget":"%1$s","command":"display.show_text",
                                        "params":{"text":"mail {{trigger.gate.state}}"}}],
                           "denied":[{"gadget":"%1$s","command":"display.show_text",
                                      "params":{"text":"not sent: {{trigger.gate.note}}"}}]},
                 "allow":{"commands":["display.show_text"],"intents":["email.send"]}}
                """.formatted(bot.gadgetId()));

        String denied = gateOf(agent);
        assertThat(alice.post("/api/v1/gates/" + denied + "/deny", "{\"note\":\"not today\"}").status())
                .isEqualTo(200);
        JsonNode saidNo = continuation(agent, 2);
        assertThat(saidNo.at("/trigger/gate/state").asText()).isEqualTo("denied");
        assertThat(saidNo.at("/actions/0/params/text").asText()).isEqualTo("not sent: not today");
        Awaitility.await().atMost(WAIT).until(() -> bot.screenText().equals("not sent: not today"));

        String approved = gateOf(agent);
        assertThat(alice.post("/api/v1/gates/" + approved + "/approve", "{}").status()).isEqualTo(200);
        JsonNode saidYes = continuation(agent, 4);
        assertThat(saidYes.at("/actions/0/params/text").asText()).isEqualTo("mail executed");
        Awaitility.await().atMost(WAIT).until(() -> bot.screenText().equals("mail executed"));
        assertThat(sentTo(approved)).hasSize(1);
        assertThat(sentTo(denied)).isEmpty();
        // a continuation runs its outcome's list only: it files no second mail
        assertThat(saidYes.path("actions")).hasSize(1);
    }

    /** Runs the agent once and answers the gate its mail action filed. */
    private String gateOf(String agent) {
        String runId = Agents.runNow(alice, agent);
        awaitTerminal(runId);
        JsonNode run = Agents.run(alice, runId);
        assertThat(run.at("/actions/0/outcome").asText()).as(run.toString()).isEqualTo("gated");
        return run.at("/actions/0/result/gate").asText();
    }

    /** The agent's newest run once it has {@code runs} runs, ended, as a continuation. */
    private JsonNode continuation(String agent, int runs) {
        Awaitility.await().atMost(WAIT).until(() -> Agents.runs(alice, agent).size() == runs);
        String runId = Agents.runs(alice, agent).get(0).path("id").asText();
        awaitTerminal(runId);
        JsonNode run = Agents.run(alice, runId);
        assertThat(run.path("triggerKind").asText()).isEqualTo("continuation");
        assertThat(run.path("status").asText()).as(run.toString()).isEqualTo("succeeded");
        return run;
    }

    private static List<MimeMessage> sentTo(String gateId) {
        return GateMails.sentFor(smtp, gateId);
    }

    private static String subject(MimeMessage message) {
        try {
            return message.getSubject();
        } catch (MessagingException e) {
            throw new IllegalStateException(e);
        }
    }
}
