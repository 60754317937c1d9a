package dev.ringzero.ecosystem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpServer;
import dev.ringzero.firmware.DeskBot;
import dev.ringzero.gates.Audit;
import dev.ringzero.gates.Envelopes;
import dev.ringzero.gates.GateReconciler;
import dev.ringzero.kernel.Subject;
import dev.ringzero.support.Agents;
import dev.ringzero.support.Api;
import dev.ringzero.support.Boards;
import dev.ringzero.support.GateMails;
import dev.ringzero.support.PlatformTest;
import dev.ringzero.support.RealServices;
import jakarta.mail.internet.MimeMessage;
import org.awaitility.Awaitility;
import org.camunda.bpm.engine.RuntimeService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Ring-3 intents proposed by a run as envelopes: the trust ladder decides (auto, gate, earned,
 * scoped to one agent), email goes out over real SMTP (GreenMail in-process) once, with a
 * Message-ID from the gate id, and a webhook only reaches an allowlisted host.
 */
class EnvelopesTest extends PlatformTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static GreenMail smtp;

    @LocalServerPort
    int port;
    @Autowired
    Envelopes envelopes;
    @Autowired
    Audit audit;
    @Autowired
    GateReconciler reconciler;
    @Autowired
    RuntimeService runtimeService;
    @Autowired
    JdbcClient jdbc;

    private final Boards boards = new Boards();
    private Api alice;
    private DeskBot desk;

    @BeforeAll
    static void startSmtp() {
        smtp = new GreenMail(new ServerSetup(RealServices.smtpPort(), "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
    }

    @AfterAll
    static void stopSmtp() {
        smtp.stop();
    }

    @BeforeEach
    void setUp() {
        alice = Api.at(port).newOwner("alice");
        desk = boards.deskBot(alice);
    }

    @AfterEach
    void tearDown() {
        boards.close();
    }

    private String mailer(String intents) {
        return Agents.create(alice, """
                {"apiVersion":"ringzero/v1","name":"Digest","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"invoke"}],
                 "actions":[{"gadget":"%1$s","command":"display.show_text","params":{"text":"digest"}}],
                 "allow":{"commands":["display.show_text"],"intents":[%2$s]}}
                """.formatted(desk.gadgetId(), intents));
    }

    private static Subject.AgentRun run(Api owner, String agent) {
        return new Subject.AgentRun(owner.accountId(), agent, 1, UUID.randomUUID().toString());
    }

    private static JsonNode email(String subject, String... to) {
        return JSON.createObjectNode().put("subject", subject).put("body", "This week: nothing broke.")
                .set("to", JSON.valueToTree(List.of(to)));
    }

    private String rule(String body) {
        var created = alice.post("/api/v1/trust-rules", body);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.json().path("id").asText();
    }

    private void approve(String gateId) {
        assertThat(alice.post("/api/v1/gates/" + gateId + "/approve", "{}").status()).isEqualTo(200);
        awaitState(gateId, "executed");
    }

    private void awaitState(String gateId, String state) {
        Awaitility.await().atMost(WAIT).until(() ->
                state.equals(alice.get("/api/v1/gates/" + gateId).json().path("state").asText()));
    }

    /** Message-IDs GreenMail received (one copy per recipient, so distinct ids = emails sent). */
    private static Set<String> sentIds() {
        return Arrays.stream(smtp.getReceivedMessages()).map(message -> {
            try {
                return message.getMessageID();
            } catch (jakarta.mail.MessagingException e) {
                throw new IllegalStateException(e);
            }
        }).collect(Collectors.toSet());
    }

    @Test
    void internalRecipientsRunAtOnceAndOneOutsideRecipientGatesTheWholeEmail() throws Exception {
        String agent = mailer("\"email.send\"");
        String internal = rule("{\"intent\":\"email.send\",\"predicate\":{\"to\":\"*@ourco.example\"},\"level\":\"auto\"}");

        Envelopes.Answer auto = envelopes.submitEnvelope(run(alice, agent), "email.send",
                email("Weekly digest", "ann@ourco.example", "bo@ourco.example"), "weekly digest");
        Envelopes.Answer mixed = envelopes.submitEnvelope(run(alice, agent), "email.send",
                email("Weekly digest", "ann@ourco.example", "eve@elsewhere.example"), "weekly digest");

        assertThat(auto).isInstanceOf(Envelopes.Done.class);
        Envelopes.Done done = (Envelopes.Done) auto;
        assertThat(done.state()).isEqualTo("executed");
        String messageId = "<gate-" + done.gateId() + "@ringzero.local>";
        assertThat(done.result().path("messageId").asText()).isEqualTo(messageId);
        assertThat(sentIds()).contains(messageId);
        MimeMessage sent = GateMails.sentFor(smtp, done.gateId()).stream().findFirst().orElseThrow();
        assertThat(sent.getSubject()).isEqualTo("Weekly digest");
        assertThat(sent.getAllRecipients()).hasSize(2);
        assertThat(audit.ofGate(done.gateId())).extracting(Audit.Entry::disposition).containsExactly("auto-executed");
        assertThat(audit.ofGate(done.gateId())).extracting(Audit.Entry::actor).containsExactly("trust-rule:" + internal);

        assertThat(mixed).isInstanceOf(Envelopes.Pending.class);
        String gateId = ((Envelopes.Pending) mixed).gateId();
        JsonNode gate = alice.get("/api/v1/gates/" + gateId).json();
        assertThat(gate.path("state").asText()).isEqualTo("pending");
        assertThat(gate.path("ruleId").isMissingNode() || gate.path("ruleId").isNull()).isTrue();
        assertThat(sentIds()).doesNotContain("<gate-" + gateId + "@ringzero.local>");

        approve(gateId);
        assertThat(sentIds()).contains("<gate-" + gateId + "@ringzero.local>");
        assertThat(alice.get("/api/v1/gadget-agents/" + agent + "/journal").json().findValuesAsText("kind"))
                .contains("action.auto", "gate.filed", "gate.approved", "gate.executed");
    }

    @Test
    void anEarnedRulePromotesAfterNExecutedApprovalsAndADenialDemotesIt() {
        String agent = mailer("\"email.send\"");
        String earned = rule("{\"agentId\":\"" + agent + "\",\"intent\":\"email.send\",\"level\":\"earned\","
                + "\"earnAfter\":2,\"earnWindow\":\"P30D\"}");
        List<String> gates = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 3; i++) {
            Envelopes.Answer answer = envelopes.submitEnvelope(run(alice, agent), "email.send",
                    email("Report " + i, "ann@ourco.example"), "report");
            assertThat(answer).isInstanceOf(Envelopes.Pending.class);
            gates.add(((Envelopes.Pending) answer).gateId());
        }
        assertThat(alice.get("/api/v1/gates/" + gates.get(0)).json().path("ruleId").asText()).isEqualTo(earned);

        approve(gates.get(0));
        assertThat(envelopes.submitEnvelope(run(alice, agent), "email.send", email("Early", "ann@ourco.example"),
                "one approval is not enough")).isInstanceOf(Envelopes.Pending.class);
        approve(gates.get(1));
        Envelopes.Answer promoted = envelopes.submitEnvelope(run(alice, agent), "email.send",
                email("Report 4", "ann@ourco.example"), "report");
        assertThat(alice.post("/api/v1/gates/" + gates.get(2) + "/deny", "{\"note\":\"wrong numbers\"}").status())
                .isEqualTo(200);
        Envelopes.Answer demoted = envelopes.submitEnvelope(run(alice, agent), "email.send",
                email("Report 5", "ann@ourco.example"), "report");

        assertThat(promoted).isInstanceOf(Envelopes.Done.class);
        assertThat(audit.ofGate(((Envelopes.Done) promoted).gateId())).extracting(Audit.Entry::actor)
                .containsExactly("trust-rule:" + earned);
        assertThat(demoted).isInstanceOf(Envelopes.Pending.class);
    }

    @Test
    void aRuleScopedToOneAgentDoesNotLeakToAnother() {
        String trusted = mailer("\"email.send\"");
        String other = mailer("\"email.send\"");
        rule("{\"agentId\":\"" + trusted + "\",\"intent\":\"email.send\",\"level\":\"auto\"}");

        Envelopes.Answer fromTrusted = envelopes.submitEnvelope(run(alice, trusted), "email.send",
                email("Hi", "ann@ourco.example"), "hello");
        Envelopes.Answer fromOther = envelopes.submitEnvelope(run(alice, other), "email.send",
                email("Hi", "ann@ourco.example"), "hello");

        assertThat(fromTrusted).isInstanceOf(Envelopes.Done.class);
        assertThat(fromOther).isInstanceOf(Envelopes.Pending.class);
    }

    @Test
    void anIntentTheAgentWasNotGrantedIsRefusedAndAudited() {
        String agent = mailer("\"webhook.post\"");
        String runId = UUID.randomUUID().toString();

        Envelopes.Answer answer = envelopes.submitEnvelope(new Subject.AgentRun(alice.accountId(), agent, 1, runId),
                "email.send", email("Hi", "ann@ourco.example"), "hello");
        Envelopes.Answer device = envelopes.submitEnvelope(run(alice, agent), "chassis.drive",
                JSON.createObjectNode(), "move");

        assertThat(answer).isEqualTo(new Envelopes.Denied("not_allowed", "email.send is not in the agent's allowed intents"));
        assertThat(device.status()).isEqualTo("denied");
        assertThat(audit.ofOwner(alice.accountId(), 10)).anySatisfy(entry -> {
            assertThat(entry.disposition()).isEqualTo("refused");
            assertThat(entry.runId()).isEqualTo(runId);
            assertThat(entry.detail()).startsWith("not_allowed");
        });
    }

    @Test
    void anSmtpAttemptInterruptedByACrashEndsUnknownForAHumanAndIsNeverResent() {
        String agent = mailer("\"email.send\"");
        String gateId = ((Envelopes.Pending) envelopes.submitEnvelope(run(alice, agent), "email.send",
                email("Crash", "ann@ourco.example"), "crash")).gateId();
        String instance = jdbc.sql("select process_instance_id from rz_gate where id = ?").param(gateId)
                .query(String.class).single();
        // approved, executing, and the pre-send record written: then the node died mid-conversation
        runtimeService.deleteProcessInstance(instance, "test: the node died", true);
        jdbc.sql("update rz_gate set state = 'executing', decided_by = ?, decided_at = ?, executing_at = ? where id = ?")
                .params(alice.accountId(), Timestamp.from(Instant.now()), Timestamp.from(Instant.now()), gateId)
                .update();
        jdbc.sql("insert into rz_gate_attempt(gate_id, kind, idempotency_key, status, started_at) "
                + "values (?, 'smtp', ?, 'sending', ?)")
                .params(gateId, "<gate-" + gateId + "@ringzero.local>", Timestamp.from(Instant.now())).update();

        reconciler.reconcile();

        JsonNode gate = alice.get("/api/v1/gates/" + gateId).json();
        assertThat(gate.path("state").asText()).isEqualTo("failed");
        assertThat(gate.at("/result/outcome").asText()).isEqualTo("unknown");
        assertThat(gate.at("/result/needsHuman").asBoolean()).isTrue();
        assertThat(sentIds()).doesNotContain("<gate-" + gateId + "@ringzero.local>");
    }

    @Test
    void aWebhookReachesOnlyAnAllowlistedHostWithTheGateIdAsIdempotencyKey() throws IOException {
        List<String> keys = new CopyOnWriteArrayList<>();
        List<String> bodies = new CopyOnWriteArrayList<>();
        HttpServer hook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hook.createContext("/hook", exchange -> {
            keys.add(exchange.getRequestHeaders().getFirst("Idempotency-Key"));
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] ok = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, ok.length);
            exchange.getResponseBody().write(ok);
            exchange.close();
        });
        hook.start();
        try {
            String agent = mailer("\"webhook.post\"");
            rule("{\"intent\":\"webhook.post\",\"level\":\"auto\"}");
            JsonNode payload = JSON.createObjectNode()
                    .put("url", "http://127.0.0.1:" + hook.getAddress().getPort() + "/hook")
                    .set("body", JSON.createObjectNode().put("temperature", 21));

            Envelopes.Answer notYet = envelopes.submitEnvelope(run(alice, agent), "webhook.post", payload, "report");
            assertThat(alice.post("/api/v1/webhook-hosts", "{\"host\":\"127.0.0.1\"}").status()).isEqualTo(201);
            Envelopes.Answer sent = envelopes.submitEnvelope(run(alice, agent), "webhook.post", payload, "report");

            assertThat(notYet).isInstanceOf(Envelopes.Denied.class);
            assertThat(((Envelopes.Denied) notYet).detail()).contains("allowlist");
            assertThat(sent).isInstanceOf(Envelopes.Done.class);
            String gateId = ((Envelopes.Done) sent).gateId();
            assertThat(((Envelopes.Done) sent).result().path("status").asInt()).isEqualTo(200);
            assertThat(keys).containsExactly(gateId);
            assertThat(bodies).containsExactly("{\"temperature\":21}");
            assertThat(alice.get("/api/v1/webhook-hosts").json().path("own").findValuesAsText("")).isEmpty();
            assertThat(alice.get("/api/v1/webhook-hosts").json().at("/own/0").asText()).isEqualTo("127.0.0.1");
        } finally {
            hook.stop(0);
        }
    }
}
