package dev.ringzero.gadgets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.firmware.BoardLinkException;
import dev.ringzero.firmware.DeskBot;
import dev.ringzero.firmware.LinkConfig;
import dev.ringzero.firmware.RawSubscription;
import dev.ringzero.support.Api;
import dev.ringzero.support.Api.Response;
import dev.ringzero.support.Boards;
import dev.ringzero.support.PlatformTest;
import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/** Pairing, the link gateway and the dispatcher against Mosquitto (dynamic security) and real boards. */
class GadgetLinkTest extends PlatformTest {

    @LocalServerPort
    int port;
    @Autowired
    MeterRegistry meters;
    @Autowired
    GadgetStore gadgetStore;
    @Autowired
    @org.springframework.beans.factory.annotation.Qualifier("mqttClientManager")
    org.springframework.integration.mqtt.core.Mqttv3ClientManager inboundClients;
    @Autowired
    @org.springframework.beans.factory.annotation.Qualifier("mqttAnswersClientManager")
    org.springframework.integration.mqtt.core.Mqttv3ClientManager answerClients;
    @Autowired
    org.springframework.jdbc.core.simple.JdbcClient jdbc;
    @Autowired
    dev.ringzero.gateway.LinkGateway gateway;
    @Autowired
    CredentialSweep credentialSweep;
    @Autowired
    BrokerAccess brokerAccess;

    private Boards boards;
    private Api alice;

    @BeforeEach
    void setUp() {
        boards = new Boards();
        alice = Api.at(port).newOwner("alice");
    }

    @AfterEach
    void tearDown() {
        boards.close();
    }

    private JsonNode listed(Api owner, String gadgetId) {
        for (JsonNode gadget : owner.get("/api/v1/gadgets").json()) {
            if (gadget.path("id").asText().equals(gadgetId)) {
                return gadget;
            }
        }
        return null;
    }

    @Test
    void aPairedBoardRegistersAndIsListedOnlineWithItsCommandsThenGoesOfflineByItsLastWill() {
        DeskBot bot = boards.deskBot(alice);

        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> listed(alice, bot.gadgetId()).path("online").asBoolean());
        JsonNode gadget = listed(alice, bot.gadgetId());
        assertThat(gadget.path("commands").has("speaker.say")).isTrue();
        assertThat(gadget.path("events").findValuesAsText("name")).contains("shaken", "picked_up");
        assertThat(gadget.path("capabilities").path("speaker").asBoolean()).isTrue();
        assertThat(gadget.path("lastSeen").isNull()).isFalse();

        bot.kill();

        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> !listed(alice, bot.gadgetId()).path("online").asBoolean());
    }

    @Test
    void aDirectCommandRoundTripsAndSpeechIsReportedAsAcceptedNotCompleted() {
        DeskBot bot = boards.deskBot(alice);

        Response shown = alice.post("/api/v1/gadgets/" + bot.gadgetId() + "/commands",
                "{\"command\":\"display.show_text\",\"params\":{\"text\":\"hello\"}}");
        Response said = alice.post("/api/v1/gadgets/" + bot.gadgetId() + "/commands",
                "{\"command\":\"speaker.say\",\"params\":{\"text\":\"good morning\"}}");

        assertThat(shown.status()).as(shown.body()).isEqualTo(200);
        assertThat(shown.json().path("outcome").asText()).isEqualTo("completed");
        assertThat(bot.screenText()).isEqualTo("hello");
        assertThat(said.json().path("outcome").asText()).isEqualTo("accepted");
        assertThat(said.json().at("/payload/status").asText()).isEqualTo("fetching");
    }

    @Test
    void aDeviceErrorIsReportedAsFailedWithItsCode() {
        DeskBot bot = boards.deskBot(alice);
        bot.setSpeakerOn(false);

        Response said = alice.post("/api/v1/gadgets/" + bot.gadgetId() + "/commands",
                "{\"command\":\"speaker.say\",\"params\":{\"text\":\"hi\"}}");

        assertThat(said.json().path("outcome").asText()).isEqualTo("failed");
        assertThat(said.json().path("errorCode").asText()).isEqualTo("speaker_off");
    }

    @Test
    void noAnswerByTheDeadlineIsUnknownAndIsNeverSentAgain() {
        DeskBot bot = boards.deskBot(alice);
        bot.setSilent(true);

        Response read = alice.post("/api/v1/gadgets/" + bot.gadgetId() + "/commands", "{\"command\":\"imu.read\"}");

        assertThat(read.json().path("outcome").asText()).isEqualTo("unknown");
        bot.setSilent(false);
        assertThat(bot.invocations()).hasSize(1);
    }

    @Test
    void anOfflineGadgetFailsFastAndNothingIsPublished() throws Exception {
        DeskBot bot = boards.deskBot(alice);
        String gadgetId = bot.gadgetId();
        List<String> published = new ArrayList<>();
        var watcher = PlatformSubscriber.subscribe("ringzero/v1/gadgets/" + gadgetId + "/invoke", published);
        bot.kill();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !listed(alice, gadgetId).path("online").asBoolean());

        Response response = alice.post("/api/v1/gadgets/" + gadgetId + "/commands",
                "{\"command\":\"display.show_text\",\"params\":{\"text\":\"x\"}}");

        assertThat(response.status()).isEqualTo(409);
        assertThat(response.problemType()).endsWith("/gadget-offline");
        Thread.sleep(300);
        assertThat(published).isEmpty();
        watcher.close();
    }

    @Test
    void unregisteredPrivilegedAndForeignCommandsAreRefusedClearly() {
        DeskBot bot = boards.deskBot(alice);
        Api bob = Api.at(port).newOwner("bob");
        String commands = "/api/v1/gadgets/" + bot.gadgetId() + "/commands";

        Response unregistered = alice.post(commands, "{\"command\":\"chassis.drive\",\"params\":{}}");
        Response privileged = alice.post(commands, "{\"command\":\"device.ota\",\"params\":{}}");
        Response foreign = bob.post(commands, "{\"command\":\"display.show_text\",\"params\":{\"text\":\"x\"}}");

        assertThat(unregistered.status()).isEqualTo(400);
        assertThat(unregistered.problemType()).endsWith("/command-unregistered");
        assertThat(privileged.status()).isEqualTo(403);
        assertThat(privileged.problemType()).endsWith("/command-privileged");
        assertThat(foreign.status()).isEqualTo(404);
        assertThat(bob.get("/api/v1/gadgets/" + bot.gadgetId()).status()).isEqualTo(404);
        assertThat(bob.delete("/api/v1/gadgets/" + bot.gadgetId()).status()).isEqualTo(404);
        assertThat(bot.invocations()).isEmpty();
    }

    @Test
    void aBoardCannotPublishOnAnotherBoardsTopicsNorReadItsInvocations() {
        DeskBot a = boards.deskBot(alice);
        DeskBot b = boards.deskBot(alice);

        RawSubscription snoop = a.subscribeRaw("ringzero/v1/gadgets/" + b.gadgetId() + "/invoke");
        a.publishRawTo("ringzero/v1/gadgets/" + b.gadgetId() + "/invoke",
                ("{\"method\":\"link.invoke\",\"id\":\"forged-1\",\"command\":\"display.show_text\","
                        + "\"params\":{\"text\":\"forged\"},\"timeout_ms\":5000}").getBytes(StandardCharsets.UTF_8));
        Response real = alice.post("/api/v1/gadgets/" + b.gadgetId() + "/commands",
                "{\"command\":\"display.show_text\",\"params\":{\"text\":\"real\"}}");

        assertThat(real.json().path("outcome").asText()).isEqualTo("completed");
        assertThat(snoop.granted()).isFalse();
        assertThat(snoop.messages()).isEmpty();
        assertThat(b.invocations()).extracting(invocation -> invocation.id()).doesNotContain("forged-1");
        assertThat(b.screenText()).isEqualTo("real");
    }

    @Test
    void aBoardCannotConnectWithAnotherClientIdentityOrAWrongPassword() {
        LinkConfig config = Boards.pair(alice, "desk");

        assertThatExceptionOfType(BoardLinkException.class).isThrownBy(() ->
                new DeskBot(new LinkConfig(config.brokerUrl(), config.gadgetId(), "wrong-password")).start());
    }

    @Test
    void theInboundConnectionLeavesTheAcknowledgementOfEventsToAdmission() {
        // Paho acknowledges a message when its handler returns unless its client was made with
        // manual acks, which only the client manager sets (the adapter's flag only adds a header)
        assertThat(inboundClients.isManualAcks()).isTrue();
        assertThat(answerClients.isManualAcks()).as("answers are acknowledged once recorded").isTrue();
    }

    @Test
    void anAnswerIsAcknowledgedOnlyOnceItIsRecordedAndAMalformedOneAtOnce() {
        DeskBot bot = boards.deskBot(alice);
        bot.setSilent(true);
        String agent = dev.ringzero.support.Agents.create(alice,
                dev.ringzero.support.Agents.imuRead(bot.gadgetId(), "Acknowledged", "parallel"));
        dev.ringzero.support.Agents.runNow(alice, agent);
        assertThat(bot.awaitInvocations(1, Duration.ofSeconds(5))).isTrue();
        String invocation = bot.invocations().get(0).id();
        String topic = "ringzero/v1/gadgets/" + bot.gadgetId() + "/results";
        List<String> outcomeWhenAcknowledged = new java.util.concurrent.CopyOnWriteArrayList<>();

        gateway.accept(topic, ("{\"method\":\"link.result\",\"id\":\"" + invocation
                + "\",\"ok\":true,\"payload\":{\"x\":0.1}}").getBytes(StandardCharsets.UTF_8),
                () -> outcomeWhenAcknowledged.add(jdbc.sql("select outcome from rz_invocation where id = ?")
                        .param(invocation).query(String.class).single()));

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !outcomeWhenAcknowledged.isEmpty());
        assertThat(outcomeWhenAcknowledged).containsExactly("completed");

        List<Boolean> malformedAcknowledged = new java.util.concurrent.CopyOnWriteArrayList<>();
        gateway.accept(topic, "{\"method\":\"link.result\"}".getBytes(StandardCharsets.UTF_8),
                () -> malformedAcknowledged.add(true));
        assertThat(malformedAcknowledged).containsExactly(true);
    }

    @Test
    void theLinkRemembersAPairingForItsTtlAndForgetsItAtOnceWhenUnpairedHere() {
        DeskBot bot = boards.deskBot(alice);
        assertThat(gadgetStore.pairing(bot.gadgetId())).map(GadgetStore.Pairing::ownerId).contains(alice.accountId());

        // changed behind this node's back (as by another node): the remembered pairing still holds
        jdbc.sql("update rz_gadget set owner_id = owner_id || '-elsewhere' where id = ?").param(bot.gadgetId()).update();
        assertThat(gadgetStore.pairing(bot.gadgetId())).map(GadgetStore.Pairing::ownerId).contains(alice.accountId());
        jdbc.sql("update rz_gadget set owner_id = ? where id = ?").params(alice.accountId(), bot.gadgetId()).update();

        assertThat(alice.delete("/api/v1/gadgets/" + bot.gadgetId()).status()).isEqualTo(204);
        assertThat(gadgetStore.pairing(bot.gadgetId())).as("unpaired on this node: forgotten at once").isEmpty();
        assertThat(gadgetStore.pairing("never-paired-" + System.nanoTime())).isEmpty();
    }

    @Test
    void unpairingNotifiesTheBoardClosesItAndItsCredentialStopsWorking() {
        DeskBot bot = boards.deskBot(alice);

        assertThat(alice.delete("/api/v1/gadgets/" + bot.gadgetId()).status()).isEqualTo(204);

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(bot::unpaired);
        assertThat(bot.controlNotices()).extracting(notice -> notice.event()).contains("link.unpaired");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !bot.isConnected());
        // the board closes on the notice; the credential is revoked a grace later (the notice must
        // leave the broker first), so a board quick enough can still get in during that grace
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> refused(bot.config()));
        assertThat(listed(alice, bot.gadgetId())).isNull();
        assertThat(alice.get("/api/v1/gadgets/" + bot.gadgetId()).status()).isEqualTo(404);
    }

    @Test
    void aCredentialAnUnpairingLeftOnTheBrokerIsRetiredByTheSweepAndPairedOnesAreKept() {
        DeskBot kept = boards.deskBot(alice);
        LinkConfig left = Boards.pair(alice, "left-behind");
        // unpaired as by a node that stopped in the grace before its revoke: the row says
        // unpaired, the broker still accepts the credential
        jdbc.sql("update rz_gadget set paired = false where id = ?").param(left.gadgetId()).update();
        assertThat(refused(left)).as("accepted until swept").isFalse();

        assertThat(credentialSweep.sweep()).isGreaterThanOrEqualTo(1);

        assertThat(refused(left)).isTrue();
        assertThat(credentialSweep.retire(kept.gadgetId())).as("a paired gadget's credential is kept").isFalse();
        assertThat(credentialSweep.retire("never-paired-" + System.nanoTime())).isFalse();
        assertThat(kept.isConnected()).isTrue();
        assertThat(brokerAccess.credentialed()).contains(kept.gadgetId()).doesNotContain(left.gadgetId());
    }

    @Test
    void malformedAndOversizedMessagesAreCountedAndTheGatewayKeepsServing() {
        DeskBot bot = boards.deskBot(alice);
        double malformedBefore = rejected("malformed");
        double oversizedBefore = rejected("oversized");

        bot.publishRaw("events", "{not json".getBytes(StandardCharsets.UTF_8));
        bot.publishRaw("results", "[1,2,3]".getBytes(StandardCharsets.UTF_8));
        bot.publishRaw("events", new byte[300 * 1024]);

        // the oversized message makes the broker drop the board's connection, and Paho 1.2.5's own
        // disconnect thread can die of an NPE in that race (ClientState.quiesce): the board's
        // business, not the platform's, so Awaitility is not to fail on other threads' exceptions
        Awaitility.await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(10))
                .until(() -> rejected("malformed") >= malformedBefore + 2 && rejected("oversized") >= oversizedBefore + 1);
        Response still = alice.post("/api/v1/gadgets/" + bot.gadgetId() + "/commands",
                "{\"command\":\"display.show_text\",\"params\":{\"text\":\"still here\"}}");
        assertThat(still.json().path("outcome").asText()).isEqualTo("completed");
    }

    @Test
    void aRejectedRegistrationIsAnsweredWithACodeAndKeepsThePreviousOne() {
        DeskBot bot = boards.deskBot(alice);
        bot.customizeRegistration(params -> {
            List<Map<String, Object>> events = new ArrayList<>();
            for (int i = 0; i < 17; i++) {
                events.add(Map.of("name", "event_" + i, "description", "too many"));
            }
            params.put("events", events);
        });

        bot.register();

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> bot.lastRegisterReply()
                .map(reply -> !reply.ok()).orElse(false));
        assertThat(bot.lastRegisterReply().orElseThrow().errorCode()).isEqualTo("invalid_events");
        assertThat(listed(alice, bot.gadgetId()).path("commands").has("speaker.say")).isTrue();
        assertThat(listed(alice, bot.gadgetId()).path("events").findValuesAsText("name")).doesNotContain("event_0");
    }

    @Test
    void pairingRefusesBadIdsAndIdsThatArePairedAlready() {
        LinkConfig config = Boards.pair(alice, "desk");
        Api bob = Api.at(port).newOwner("bob");

        Response again = bob.post("/api/v1/gadgets", "{\"id\":\"" + config.gadgetId() + "\"}");
        Response bad = alice.post("/api/v1/gadgets", "{\"id\":\"../etc\"}");
        Response wildcard = alice.post("/api/v1/gadgets", "{\"id\":\"a+b\"}");

        assertThat(again.status()).isEqualTo(409);
        assertThat(bad.status()).isEqualTo(400);
        assertThat(wildcard.status()).isEqualTo(400);
    }

    /** Whether a fresh board with this credential is refused as unauthorised (one that gets in is closed). */
    private static boolean refused(LinkConfig config) {
        DeskBot again = new DeskBot(config);
        try {
            again.start();
            again.close();
            return false;
        } catch (BoardLinkException e) {
            return e.isAuthFailure();
        }
    }

    private double rejected(String reason) {
        var counter = meters.find("ringzero.link.rejected").tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }
}
