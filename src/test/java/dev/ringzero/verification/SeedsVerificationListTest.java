package dev.ringzero.verification;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.router.EventAdmission;
import dev.ringzero.router.IncomingEvent;
import dev.ringzero.router.TriggerRouter;
import dev.ringzero.support.Agents;
import dev.ringzero.support.Api;
import dev.ringzero.support.Api.Response;
import dev.ringzero.support.Definitions;
import dev.ringzero.support.OwnerWithDeskBotTest;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The seeds' verification list ("before phase one ships"), one test per item, on PostgreSQL,
 * Mosquitto and the firmware stubs. docs/verification.md maps each item to its test.
 */
class SeedsVerificationListTest extends OwnerWithDeskBotTest {

    @Autowired
    EventAdmission admission;
    @Autowired
    TriggerRouter router;
    @Autowired
    JdbcClient jdbc;

    @Test
    void ownershipRejection_anotherAccountsGadgetAgentAndRunAreInvisibleAndUntouchable() {
        String agent = Agents.create(alice, Definitions.barkWhenShakenHard(bot.gadgetId(), null));
        String runId = Agents.runNow(alice, agent);
        Api bob = Api.at(port).newOwner("bob");

        Response bobsAgentOnAlicesGadget = bob.post("/api/v1/gadget-agents", Definitions.barkWhenShakenHard(bot.gadgetId(), null));

        assertThat(bobsAgentOnAlicesGadget.status()).isEqualTo(400);
        assertThat(bobsAgentOnAlicesGadget.json().path("errors").findValuesAsText("code")).contains("unknown_gadget");
        assertThat(bob.post("/api/v1/gadgets/" + bot.gadgetId() + "/commands",
                "{\"command\":\"display.show_text\",\"params\":{\"text\":\"x\"}}").status()).isEqualTo(404);
        assertThat(bob.get("/api/v1/gadget-agents/" + agent).status()).isEqualTo(404);
        assertThat(bob.get("/api/v1/runs/" + runId).status()).isEqualTo(404);
        assertThat(bob.get("/api/v1/gadgets").json()).isEmpty();
    }

    @Test
    void duplicatedEvents_theSameEventIdAndTheSameEventWithinTheWindowAreAdmittedOnce() {
        String agent = Agents.create(alice, Definitions.showTextWhenShaken(bot.gadgetId(), "{\"runsPerHour\":100}", "parallel"));
        String gatewayToken = Api.at(port).basic("admin", ADMIN_PASSWORD)
                .post("/api/v1/admin/service-tokens", "{\"role\":\"gateway\"}").json().path("token").asText();
        Api gateway = Api.at(port).bearer(gatewayToken);

        String id = bot.emitEvent("shaken", Map.of("strength", "hard", "peak_g", 2.1));
        Awaitility.await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(20)).until(() -> jdbc.sql(
                "select count(*) from rz_event where device_event_id = ?").param(id).query(Integer.class).single() == 1);
        bot.emitEvent(id, "shaken", Map.of("strength", "hard", "peak_g", 2.1));
        Response sameIdOverRest = gateway.post("/api/v1/gadgets/events", "{\"gadgetId\":\"" + bot.gadgetId()
                + "\",\"id\":\"" + id + "\",\"event\":\"shaken\",\"data\":{\"strength\":\"hard\",\"peak_g\":2.1}}");
        Response sameContentNewId = gateway.post("/api/v1/gadgets/events", "{\"gadgetId\":\"" + bot.gadgetId()
                + "\",\"id\":\"other-id\",\"event\":\"shaken\",\"data\":{\"strength\":\"hard\",\"peak_g\":2.1}}");

        assertThat(sameIdOverRest.json().path("result").asText()).isEqualTo("duplicate");
        assertThat(sameContentNewId.json().path("result").asText()).isEqualTo("duplicate");
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> bot.invocations().size() == 1);
        Awaitility.await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                .until(() -> Agents.runs(alice, agent).size() == 1);
    }

    @Test
    void grantRevocation_removingACommandFromTheAllowlistFencesRunsAlreadyWaiting() {
        String agent = Agents.create(alice, Agents.sound(bot.gadgetId(), "revoked", 300, "parallel"));
        alice.post("/api/v1/gadgets/" + bot.gadgetId() + "/commands",
                "{\"command\":\"speaker.play_url\",\"params\":{\"url\":\"https://example.org/hold.mp3\",\"duration_ms\":1500}}");
        String runId = Agents.runNow(alice, agent);

        Response revoked = alice.put("/api/v1/gadget-agents/" + agent, """
                {"apiVersion":"ringzero/v1","name":"revoked","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"invoke"}],
                 "actions":[{"gadget":"%1$s","command":"display.show_text","params":{"text":"no sound"}}],
                 "allow":{"commands":["display.show_text"]},"concurrency":"parallel"}""".formatted(bot.gadgetId()));

        assertThat(revoked.status()).as(revoked.body()).isEqualTo(200);
        Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> "fenced".equals(Agents.run(alice, runId).path("status").asText()));
        assertThat(Agents.run(alice, runId).path("reason").asText()).isEqualTo("revision_stale");
        assertThat(bot.invocations()).extracting(invocation -> invocation.params().get("url"))
                .doesNotContain("https://example.org/revoked.mp3");
    }

    @Test
    void disabledOrRevisedDefinitions_aDisabledAgentDoesNotRunAndSaysWhy() {
        String agent = Agents.create(alice, Definitions.barkWhenShakenHard(bot.gadgetId(), null));
        alice.post("/api/v1/gadget-agents/" + agent + "/disable", null);

        bot.emitEvent("shaken", Map.of("strength", "hard", "peak_g", 2.3));

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> Agents.decisions(alice, agent).contains("disabled"));
        assertThat(Agents.runs(alice, agent)).isEmpty();
        Response explicit = alice.post("/api/v1/gadget-agents/" + agent + "/runs", "{}");
        assertThat(explicit.json().path("status").asText()).isEqualTo("fenced");
        assertThat(explicit.json().path("reason").asText()).isEqualTo("agent_disabled");
        assertThat(bot.invocations()).isEmpty();
    }

    @Test
    void offlineGadgets_anActionForAnOfflineGadgetFailsFastAndSendsNothing() {
        String agent = Agents.create(alice, Definitions.showTextWhenShaken(bot.gadgetId(), "{\"runsPerHour\":100}", "parallel"));
        bot.kill();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                !alice.get("/api/v1/gadgets/" + bot.gadgetId()).json().path("online").asBoolean());

        String runId = Agents.runNow(alice, agent);

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "failed".equals(Agents.run(alice, runId).path("status").asText()));
        assertThat(Agents.run(alice, runId).at("/actions/0/errorCode").asText()).isEqualTo("offline");
        assertThat(jdbc.sql("select count(*) from rz_invocation where run_id = ?").param(runId).query(Integer.class).single())
                .isZero();
    }

    @Test
    void unknownCommandOutcomes_noAnswerIsRecordedUnknownAndNeverRetried() {
        String agent = Agents.create(alice, Definitions.showTextWhenShaken(bot.gadgetId(), "{\"runsPerHour\":100}", "parallel")
                .replace("display.show_text", "imu.read").replace("\"params\":{\"text\":\"shaken {{event.data.strength}}\"}", "\"params\":{}"));
        bot.setSilent(true);

        String runId = Agents.runNow(alice, agent);

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "failed".equals(Agents.run(alice, runId).path("status").asText()));
        assertThat(Agents.run(alice, runId).at("/actions/0/outcome").asText()).isEqualTo("unknown");
        bot.setSilent(false);
        assertThat(bot.invocations()).hasSize(1);
    }

    @Test
    void overlappingRuns_singleConcurrencyDropsTheOverlapAndQueuedRunsTakeTurns() {
        String single = Agents.create(alice, Agents.imuRead(bot.gadgetId(), "single", "single"));
        String queued = Agents.create(alice, Agents.imuRead(bot.gadgetId(), "queued", "queued"));
        bot.setSilent(true); // the first runs wait for an answer (2 s timeout): they overlap what follows

        String first = Agents.runNow(alice, single);
        Response overlap = alice.post("/api/v1/gadget-agents/" + single + "/runs", "{}");
        String firstQueued = Agents.runNow(alice, queued);
        Response second = alice.post("/api/v1/gadget-agents/" + queued + "/runs", "{}");
        bot.setSilent(false);

        assertThat(overlap.json().path("status").asText()).isEqualTo("dropped_concurrency");
        assertThat(second.json().path("status").asText()).isEqualTo("queued");
        assertThat(bot.invocations()).hasSize(2); // the dropped and the queued run sent nothing
        String secondId = second.json().path("runId").asText();
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> "succeeded".equals(
                Agents.run(alice, secondId).path("status").asText()));
        // the second queued run started only once the first had ended (unanswered: unknown, failed)
        assertThat(Agents.run(alice, firstQueued).path("status").asText()).isEqualTo("failed");
        assertThat(Agents.run(alice, first).path("status").asText()).isEqualTo("failed");
        assertThat(bot.invocations()).hasSize(3);
    }

    @Test
    void recoveryAfterWorkerRestart_anEventAdmittedButNeverRoutedIsProcessedOnce() throws Exception {
        String agent = Agents.create(alice, Definitions.showTextWhenShaken(bot.gadgetId(), "{\"runsPerHour\":100}", "parallel"));
        var data = new ObjectMapper().readTree("{\"strength\":\"hard\",\"peak_g\":2.4}");

        // what a crash right after admission leaves behind: committed, never routed
        EventAdmission.Result admitted = admission.admit(new IncomingEvent(bot.gadgetId(), alice.accountId(),
                "crash-1", "shaken", data, "mqtt"));
        assertThat(admitted).isInstanceOf(EventAdmission.Admitted.class);
        jdbc.sql("update rz_event set received_at = received_at - interval '10 seconds' where device_event_id = 'crash-1'")
                .update();

        router.recover();
        router.recover();

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> bot.invocations().size() == 1);
        Awaitility.await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                .until(() -> Agents.runs(alice, agent).size() == 1 && bot.invocations().size() == 1);
    }

    @Test
    void budgets_twentyConcurrentTriggersAgainstFiveRunsPerHourAdmitExactlyFive() throws Exception {
        String agent = Agents.create(alice, Definitions.showTextWhenShaken(bot.gadgetId(), "{\"runsPerHour\":5}", "parallel")
                .replace("\"concurrency\":\"parallel\"", "\"concurrency\":\"parallel\",\"maxParallel\":16"));
        String token = Api.at(port).basic("admin", ADMIN_PASSWORD).post("/api/v1/admin/service-tokens",
                "{\"role\":\"gateway\"}").json().path("token").asText();
        Api gateway = Api.at(port).bearer(token);
        ExecutorService pool = Executors.newFixedThreadPool(20);
        CountDownLatch start = new CountDownLatch(1);
        List<java.util.concurrent.Future<Response>> sent = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            int n = i;
            sent.add(pool.submit(() -> {
                start.await();
                return gateway.post("/api/v1/gadgets/events", "{\"gadgetId\":\"" + bot.gadgetId() + "\",\"id\":\"burst-" + n
                        + "\",\"event\":\"shaken\",\"data\":{\"strength\":\"hard\",\"n\":" + n + "}}");
            }));
        }
        start.countDown();
        for (var future : sent) {
            assertThat(future.get(30, TimeUnit.SECONDS).status()).isEqualTo(202);
        }
        pool.shutdown();

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Agents.runs(alice, agent).size() == 20);
        List<String> statuses = Agents.statuses(alice, agent);
        assertThat(statuses.stream().filter("rate_limited"::equals).count()).isEqualTo(15);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> bot.invocations().size() == 5);
    }
}
