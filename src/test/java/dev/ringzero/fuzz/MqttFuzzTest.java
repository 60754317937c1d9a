package dev.ringzero.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.support.Api;
import dev.ringzero.support.Api.Response;
import dev.ringzero.support.Definitions;
import dev.ringzero.support.OwnerWithDeskBotTest;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The link's half of the fuzz suite: malformed {@code link.event}, {@code link.register} and
 * {@code link.result} envelopes published by a paired board on its own connection (and bytes that
 * are not JSON, not UTF-8, or too large). There is no status code here, so the properties are: no
 * event is stored (nor reaches the inbox) from an envelope the contract calls malformed, no ERROR
 * is logged about the board, and afterwards the link still works: the board registers again, a
 * valid event still runs an agent, a direct command is still answered.
 */
class MqttFuzzTest extends OwnerWithDeskBotTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    JdbcClient jdbc;

    private ErrorLog errorLog;

    @BeforeEach
    void watchErrors() {
        errorLog = new ErrorLog(List.of(bot.gadgetId()));
    }

    @AfterEach
    void stopWatching() {
        errorLog.close();
    }

    private static Mutator mutator(String target) {
        return new Mutator(new Random(RestFuzzTest.SEED ^ target.hashCode()));
    }

    /** Mostly a mutated envelope; sometimes bytes no parser should accept. */
    private byte[] payload(Mutator fuzz, String valid, List<String> shown) {
        Random random = fuzz.random();
        String text;
        switch (random.nextInt(25)) {
            case 0 -> {
                shown.add("(300 KiB)");
                return ("{\"method\":\"link.event\",\"params\":{\"id\":\"big\",\"event\":\"shaken\",\"data\":{\"x\":\""
                        + "x".repeat(300 * 1024) + "\"}}}").getBytes(StandardCharsets.UTF_8);
            }
            case 1 -> {
                byte[] bytes = valid.getBytes(StandardCharsets.UTF_8);
                bytes[random.nextInt(bytes.length)] = (byte) (0x80 | random.nextInt(0x80));
                shown.add("(not UTF-8) " + new String(bytes, StandardCharsets.ISO_8859_1));
                return bytes;
            }
            case 2 -> text = "";
            default -> text = fuzz.mutate(valid);
        }
        shown.add(text);
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Publishes on the board's own topic. The broker drops a board that sends more than it takes (a
     * packet over its size limit); then the board must be back, reconnected, before the next case.
     */
    private void publish(String topic, byte[] payload, Findings findings, int n, String input) {
        findings.counted();
        if (!bot.publishRaw(topic, payload) || !bot.isConnected()) {
            try {
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(bot::isConnected);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                findings.add(n, topic, Findings.clip(input), "the board did not get its link back");
                throw new AssertionError("seed " + RestFuzzTest.SEED + ": the board lost its link for good after case "
                        + n + " on " + topic);
            }
        }
    }

    /** Text of 1 to 64 characters without control characters: a link id or event name. */
    private static boolean linkText(JsonNode node) {
        return node.isTextual() && !node.asText().isEmpty() && node.asText().length() <= 64
                && node.asText().chars().noneMatch(c -> c < 0x20 || c == 0x7f);
    }

    /** What the contract calls a well-formed {@code link.event} (docs/contracts.md, section 1). */
    private static boolean wellFormedEvent(byte[] payload) {
        JsonNode envelope;
        try {
            envelope = JSON.readTree(payload);
        } catch (Exception e) {
            return false;
        }
        if (envelope == null || !envelope.isObject() || !"link.event".equals(envelope.path("method").textValue())) {
            return false;
        }
        JsonNode params = envelope.path("params");
        JsonNode id = params.path("id");
        JsonNode event = params.path("event");
        return params.isObject() && linkText(id) && linkText(event)
                && (!params.has("data") || params.get("data").isObject());
    }

    @Test
    void malformedEventsAreNeitherStoredNorInTheInbox() throws Exception {
        Findings findings = new Findings("mqtt-events", RestFuzzTest.SEED);
        Mutator fuzz = mutator("mqtt-events");
        Set<String> wellFormedIds = new HashSet<>();
        List<String> inputs = new ArrayList<>();
        for (int n = 0; n < 500; n++) {
            String valid = "{\"method\":\"link.event\",\"params\":{\"id\":\"mz-" + n + "\",\"event\":\""
                    + (n % 2 == 0 ? "shaken" : "picked_up") + "\",\"data\":{\"strength\":\"gentle\",\"n\":" + n
                    + "},\"uptime_ms\":" + (1000 + n) + "}}";
            List<String> shown = new ArrayList<>();
            byte[] payload = payload(fuzz, valid, shown);
            String input = shown.get(0);
            inputs.add(input);
            if (wellFormedEvent(payload)) {
                wellFormedIds.add(JSON.readTree(payload).path("params").path("id").asText());
            }
            publish("events", payload, findings, n, input);
        }
        // the link handles a board's messages in order: once a last valid event is stored, all were handled
        String last = bot.emitEvent("put_down", Map.of("last", true));
        wellFormedIds.add(last);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.sql(
                "select count(*) from rz_event where gadget_id = ? and device_event_id = ?").param(bot.gadgetId())
                .param(last).query(Integer.class).single() == 1);
        List<String> stored = jdbc.sql("select device_event_id from rz_event where gadget_id = ?")
                .param(bot.gadgetId()).query(String.class).list();
        for (String id : stored) {
            if (!wellFormedIds.contains(id)) {
                List<String> from = inputs.stream().filter(input -> input.contains(id)).limit(3).toList();
                findings.add(-1, "link.event", String.join("\n    or: ", from), "stored as event '" + id
                        + "', though the envelope is malformed");
            }
        }
        JsonNode inbox = alice.get("/api/v1/inbox").json();
        if (inbox.size() > stored.size()) {
            findings.add(-1, "link.event", "(all)", inbox.size() + " inbox entries for " + stored.size() + " events");
        }
        errorLog.errors().forEach(line -> findings.add(-1, "log", "(see the cases)", "ERROR logged: " + line));
        findings.assertNone();
        System.out.printf("fuzz mqtt events: %d envelopes, %d well-formed, %d stored, seed %d%n", findings.cases(),
                wellFormedIds.size(), stored.size(), RestFuzzTest.SEED);
        StillWorking.assertFor(port, alice, bot);
    }

    @Test
    void malformedRegistrationsAndResultsLeaveTheLinkWorking() throws Exception {
        Findings findings = new Findings("mqtt-register-results", RestFuzzTest.SEED);
        Mutator fuzz = mutator("mqtt-register");
        String registration = JSON.writeValueAsString(Map.of("type", "req", "id", "r-0", "method", "link.register",
                "params", bot.registrationParams()));
        for (int n = 0; n < 250; n++) {
            List<String> shown = new ArrayList<>();
            byte[] payload = payload(fuzz, registration.replace("\"r-0\"", "\"r-" + n + "\""), shown);
            publish("register", payload, findings, n, shown.get(0));
        }
        Response answered = alice.post("/api/v1/gadgets/" + bot.gadgetId() + "/commands",
                "{\"command\":\"display.show_text\",\"params\":{\"text\":\"real\"}}");
        String real = answered.json().path("invocationId").asText();
        Mutator results = mutator("mqtt-results");
        for (int n = 0; n < 350; n++) {
            String id = n % 3 == 0 ? real : "res-" + n;
            String valid = n % 2 == 0
                    ? "{\"method\":\"link.result\",\"id\":\"" + id + "\",\"ok\":true,\"payload\":{\"status\":\"done\"}}"
                    : "{\"method\":\"link.result\",\"id\":\"" + id + "\",\"ok\":false,\"error\":{\"code\":\"busy\","
                            + "\"message\":\"later\"}}";
            List<String> shown = new ArrayList<>();
            byte[] payload = payload(results, valid, shown);
            publish("results", payload, findings, n, shown.get(0));
        }
        errorLog.errors().forEach(line -> findings.add(-1, "log", "(see the cases)", "ERROR logged: " + line));
        findings.assertNone();
        System.out.printf("fuzz mqtt: %d register and result envelopes, seed %d%n", findings.cases(), RestFuzzTest.SEED);
        // the board registers again as itself, and everything works as before
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(bot::isConnected);
        bot.register();
        assertThat(bot.awaitRegistered(Duration.ofSeconds(10))).as("the board registers again").isTrue();
        assertThat(alice.get("/api/v1/gadgets/" + bot.gadgetId()).json().path("commands").has("display.show_text"))
                .isTrue();
        Response command = alice.post("/api/v1/gadgets/" + bot.gadgetId() + "/commands",
                "{\"command\":\"display.show_text\",\"params\":{\"text\":\"after\"}}");
        assertThat(command.status()).as(command.body()).isEqualTo(200);
        assertThat(command.json().path("outcome").asText()).isEqualTo("completed");
        StillWorking.assertFor(port, alice, bot);
    }

    // found by this suite (seed 20230023): such an answer failed in the database, batch and fallback alike
    @Test
    void anAnswerWhoseIdCannotBeAnInvocationIsRefusedAtTheLink() {
        for (String id : new String[] {"x".repeat(65), "res\\u0000nul", "tab\\tbed"}) {
            bot.publishRaw("results", ("{\"method\":\"link.result\",\"id\":\"" + id + "\",\"ok\":true,\"payload\":{}}")
                    .getBytes(StandardCharsets.UTF_8));
        }
        Response command = alice.post("/api/v1/gadgets/" + bot.gadgetId() + "/commands",
                "{\"command\":\"display.show_text\",\"params\":{\"text\":\"after\"}}");

        assertThat(command.json().path("outcome").asText()).isEqualTo("completed");
        assertThat(errorLog.errors()).isEmpty();
    }

    // found by this suite (seed 20230023): stored as events "-45" and "25", or dropped with an ERROR (a NUL)
    @Test
    void anEventWhoseIdOrNameIsNotTextLikeTheContractsIsRefusedAtTheLink() throws Exception {
        for (String params : new String[] {"{\"id\":-45,\"event\":\"shaken\"}", "{\"id\":\"e-1\",\"event\":25}",
                "{\"id\":\"e-2\",\"event\":true}", "{\"id\":\"e-3\",\"event\":\"sha\\u0000ken\"}",
                "{\"id\":\"e\\u0000-4\",\"event\":\"shaken\"}"}) {
            bot.publishRaw("events", ("{\"method\":\"link.event\",\"params\":" + params + "}").getBytes(StandardCharsets.UTF_8));
        }
        String last = bot.emitEvent("put_down", Map.of());
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.sql(
                "select count(*) from rz_event where gadget_id = ?").param(bot.gadgetId()).query(Integer.class).single() > 0);

        assertThat(jdbc.sql("select device_event_id from rz_event where gadget_id = ?").param(bot.gadgetId())
                .query(String.class).list()).containsExactly(last);
        assertThat(errorLog.errors()).isEmpty();
    }
}
