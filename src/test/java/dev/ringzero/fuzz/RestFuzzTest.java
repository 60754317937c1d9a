package dev.ringzero.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
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
 * Keeps issue 23's hostile inputs found: a seeded fuzz of every REST route that takes a body from a
 * stranger (definitions, both dry runs, event admission, pairing, quiet hours, direct commands).
 * Each target mutates valid inputs with {@link Mutator} from its own {@link Random}, seeded by
 * {@link #SEED} and the target's name, so any one target replays alone. Properties: never a 5xx,
 * every 4xx problem+json with a type, nothing stored (or sent to a board) from a refused input, no
 * ERROR logged about it, and the platform healthy afterwards.
 */
class RestFuzzTest extends OwnerWithDeskBotTest {

    /** Fixed, so CI runs the same cases every time; {@code -Dringzero.fuzz.seed=…} tries others. */
    static final long SEED = Long.getLong("ringzero.fuzz.seed", 20_230_023L);

    private static final String[] CONTENT_TYPES = {"*/*", "text/plain", "application/xml", null,
        "application/json; charset=ISO-8859-1", "application/x-www-form-urlencoded", "application/json;;", "json"};

    @Autowired
    JdbcClient jdbc;

    private ErrorLog errorLog;

    @BeforeEach
    void watchErrors() {
        errorLog = new ErrorLog(List.of(bot.gadgetId(), alice.accountId()));
    }

    @AfterEach
    void stopWatching() {
        errorLog.close();
    }

    private static Mutator mutator(String target) {
        return new Mutator(new Random(SEED ^ target.hashCode()));
    }

    /** Sends a mutated body: usually as JSON; now and then with another media type or as bytes that are not UTF-8. */
    private Response send(Mutator fuzz, Api api, String method, String path, String body) {
        Random random = fuzz.random();
        int roll = random.nextInt(40);
        if (roll == 0) {
            return api.raw(method, path, CONTENT_TYPES[random.nextInt(CONTENT_TYPES.length)], body);
        }
        if (roll == 1) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            if (bytes.length > 0) {
                bytes[random.nextInt(bytes.length)] = (byte) (0x80 | random.nextInt(0x80)); // a lone continuation byte
            }
            return api.rawBytes(method, path, "application/json", bytes);
        }
        return api.raw(method, path, "application/json", body);
    }

    private static <T> T pick(Random random, List<T> options) {
        return options.get(random.nextInt(options.size()));
    }

    private List<String> definitions() {
        String gadget = bot.gadgetId();
        return List.of(Definitions.barkWhenShakenHard(gadget, null),
                Definitions.showTextWhenShaken(gadget, "{\"runsPerHour\":12,\"cooldownSeconds\":0}", "single"),
                """
                {"apiVersion":"ringzero/v1","name":"Morning","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"gadget.event","gadget":"%1$s","event":"picked_up",
                              "when":{"hours":[6,10],"days":["mon","tue","wed","thu","fri"],"timeZone":"Europe/Berlin"}},
                             {"kind":"schedule","cron":"0 8 * * 1-5","timeZone":"Europe/Berlin"},{"kind":"invoke"}],
                 "actions":[{"gadget":"%1$s","command":"speaker.say","params":{"text":"Good morning"}},
                            {"gadget":"%1$s","command":"display.show_text","params":{"text":"Woof ({{event.data.strength}})"}}],
                 "instructions":"Greet whoever picks the bot up.",
                 "allow":{"commands":["speaker.say","display.show_text"],"tools":[],"intents":[],"physical":false},
                 "budget":{"runsPerHour":12,"cooldownSeconds":60,"maxRunSeconds":30,"toolCallsPerRun":8,"tokensPerRun":4000},
                 "concurrency":"queued","enabled":true}
                """.formatted(gadget));
    }

    private JsonNode agents() {
        Response list = alice.get("/api/v1/gadget-agents");
        assertThat(list.status()).as("the agent list answers").isEqualTo(200);
        return list.json();
    }

    @Test
    void definitionsAreValidatedAndNothingRefusedIsStored() {
        Findings findings = new Findings("definitions", SEED);
        Mutator fuzz = mutator("definitions");
        List<String> valid = definitions();
        for (String definition : valid) {
            Response created = alice.post("/api/v1/gadget-agents", definition);
            assertThat(created.status()).as("a seed definition is valid: " + created.body()).isEqualTo(201);
            alice.delete("/api/v1/gadget-agents/" + created.json().path("id").asText());
        }
        int accepted = 0;
        for (int n = 0; n < 700; n++) {
            String input = fuzz.mutate(pick(fuzz.random(), valid));
            boolean revise = n % 7 == 6;
            String route;
            Response response;
            String revised = null;
            if (revise) {
                // a revision of a saved agent goes through the same validation
                revised = alice.post("/api/v1/gadget-agents", valid.get(0)).json().path("id").asText();
                route = "PUT /api/v1/gadget-agents/{id}";
                response = send(fuzz, alice, "PUT", "/api/v1/gadget-agents/" + revised, input);
            } else {
                route = "POST /api/v1/gadget-agents";
                response = send(fuzz, alice, "POST", "/api/v1/gadget-agents", input);
            }
            boolean refused = findings.answer(n, route, input, response);
            if (revise) {
                JsonNode current = alice.get("/api/v1/gadget-agents/" + revised).json();
                if (refused && current.path("revision").asInt() != 1) {
                    findings.add(n, route, input, "a refused revision was stored: revision "
                            + current.path("revision").asInt());
                }
                alice.delete("/api/v1/gadget-agents/" + revised);
            } else if (response.status() == 201) {
                accepted++;
                alice.delete("/api/v1/gadget-agents/" + response.json().path("id").asText());
            }
            JsonNode agents = agents();
            if (!agents.isEmpty()) {
                findings.add(n, route, input, "after it the owner has agents: " + Findings.clip(agents.toString()));
                agents.forEach(agent -> alice.delete("/api/v1/gadget-agents/" + agent.path("id").asText()));
            }
        }
        assertNoErrorsLogged(findings);
        findings.assertNone();
        System.out.printf("fuzz definitions: %d cases, %d accepted, seed %d%n", findings.cases(), accepted, SEED);
        StillWorking.assertFor(port, alice, bot);
    }

    @Test
    void dryRunsRefuseWhatTheyCannotReadAndTouchNothing() {
        Findings findings = new Findings("dry-runs", SEED);
        Mutator fuzz = mutator("dry-runs");
        String gadget = bot.gadgetId();
        List<String> definitions = definitions();
        String saved = alice.post("/api/v1/gadget-agents", definitions.get(0)).json().path("id").asText();
        List<String> triggers = List.of(
                "{\"kind\":\"gadget.event\",\"gadget\":\"" + gadget + "\",\"event\":\"shaken\",\"data\":{\"strength\":\"hard\"}}",
                "{\"kind\":\"gadget.event\",\"gadget\":{\"id\":\"" + gadget + "\"},\"event\":{\"name\":\"shaken\","
                        + "\"data\":{\"strength\":\"hard\",\"peak_g\":2.5}}}",
                "{\"kind\":\"invoke\",\"input\":{\"x\":1}}", "{\"kind\":\"schedule\",\"cron\":\"0 8 * * 1-5\"}");
        int unsaved = 0;
        int savedCases = 0;
        for (int n = 0; n < 400; n++) {
            String route;
            String input;
            Response response;
            if (n % 2 == 0) {
                savedCases++;
                route = "POST /api/v1/gadget-agents/{id}/dry-run";
                input = fuzz.random().nextInt(5) == 0 ? fuzz.mutate("{}")
                        : fuzz.mutate("{\"trigger\":" + pick(fuzz.random(), triggers) + "}");
                response = send(fuzz, alice, "POST", "/api/v1/gadget-agents/" + saved + "/dry-run", input);
            } else {
                unsaved++;
                route = "POST /api/v1/gadget-agents/dry-run";
                String definition = pick(fuzz.random(), definitions);
                input = fuzz.mutate(fuzz.random().nextBoolean() ? definition
                        : "{\"definition\":" + definition + ",\"trigger\":" + pick(fuzz.random(), triggers) + "}");
                response = send(fuzz, alice, "POST", "/api/v1/gadget-agents/dry-run", input);
            }
            findings.answer(n, route, input, response);
            if (n % 10 == 9) {
                JsonNode agents = agents();
                if (agents.size() != 1 || agents.get(0).path("revision").asInt() != 1) {
                    findings.add(n, route, input, "a dry run changed the agents: " + Findings.clip(agents.toString()));
                }
            }
        }
        if (!bot.invocations().isEmpty()) {
            findings.add(-1, "dry runs", "(all)", "a dry run reached the board: " + bot.invocations());
        }
        JsonNode runs = alice.get("/api/v1/gadget-agents/" + saved + "/runs").json();
        if (!runs.isEmpty()) {
            findings.add(-1, "dry runs", "(all)", "a dry run left runs: " + Findings.clip(runs.toString()));
        }
        assertNoErrorsLogged(findings);
        findings.assertNone();
        System.out.printf("fuzz dry runs: %d saved, %d unsaved, seed %d%n", savedCases, unsaved, SEED);
        alice.delete("/api/v1/gadget-agents/" + saved);
        StillWorking.assertFor(port, alice, bot);
    }

    @Test
    void eventAdmissionStoresOnlyWhatItAdmits() {
        Findings findings = new Findings("events", SEED);
        Mutator fuzz = mutator("events");
        String token = Api.at(port).basic("admin", ADMIN_PASSWORD).post("/api/v1/admin/service-tokens",
                "{\"role\":\"gateway\"}").json().path("token").asText();
        Api gateway = Api.at(port).bearer(token);
        int admitted = 0;
        for (int n = 0; n < 600; n++) {
            String valid = "{\"gadgetId\":\"" + bot.gadgetId() + "\",\"id\":\"fz-" + n + "\",\"event\":\""
                    + pick(fuzz.random(), List.of("shaken", "picked_up", "put_down", "ptt_started")) + "\",\"data\":{"
                    + "\"strength\":\"hard\",\"peak_g\":2.1,\"n\":" + n + "}}";
            String input = fuzz.mutate(valid);
            Response response = send(fuzz, gateway, "POST", "/api/v1/gadgets/events", input);
            findings.answer(n, "POST /api/v1/gadgets/events", input, response);
            if (response.status() == 202) {
                admitted++;
            }
            int stored = storedEvents();
            if (stored != admitted) {
                findings.add(n, "POST /api/v1/gadgets/events", input, response.status() + " but " + stored
                        + " events stored for " + admitted + " admitted");
                admitted = stored;
            }
        }
        assertNoErrorsLogged(findings);
        findings.assertNone();
        System.out.printf("fuzz events: %d cases, %d admitted, seed %d%n", findings.cases(), admitted, SEED);
        StillWorking.assertFor(port, alice, bot);
    }

    private int storedEvents() {
        return jdbc.sql("select count(*) from rz_event where owner_id = ?").param(alice.accountId())
                .query(Integer.class).single();
    }

    @Test
    void pairingPairsOnlyWhatItAccepts() {
        Findings findings = new Findings("pairing", SEED);
        Mutator fuzz = mutator("pairing");
        int paired = 0;
        for (int n = 0; n < 150; n++) {
            String input = fuzz.mutate("{\"id\":\"fz-" + Integer.toHexString(fuzz.random().nextInt()) + "-" + n
                    + "\",\"name\":\"" + pick(fuzz.random(), List.of("Desk bot", "Küche", "rover")) + "\"}");
            Response response = send(fuzz, alice, "POST", "/api/v1/gadgets", input);
            findings.answer(n, "POST /api/v1/gadgets", input, response);
            if (response.status() == 201) {
                paired++;
                String id = response.json().path("id").asText();
                Response listed = alice.get("/api/v1/gadgets/" + id);
                if (listed.status() != 200) {
                    findings.add(n, "POST /api/v1/gadgets", input, "paired '" + id + "' but GET answers " + listed);
                }
                alice.delete("/api/v1/gadgets/" + id);
            }
            Response list = alice.get("/api/v1/gadgets");
            if (list.status() != 200 || list.json().size() != 1) {
                findings.add(n, "POST /api/v1/gadgets", input, "after it the gadget list answers " + list.status()
                        + ": " + Findings.clip(list.body()));
            }
        }
        assertNoErrorsLogged(findings);
        findings.assertNone();
        System.out.printf("fuzz pairing: %d cases, %d paired (and unpaired), seed %d%n", findings.cases(), paired, SEED);
        StillWorking.assertFor(port, alice, bot);
    }

    @Test
    void quietHoursChangeOnlyWhenAccepted() {
        Findings findings = new Findings("quiet-hours", SEED);
        Mutator fuzz = mutator("quiet-hours");
        String path = "/api/v1/gadgets/" + bot.gadgetId() + "/quiet-hours";
        List<String> valid = List.of("{\"from\":\"22:00\",\"to\":\"07:00\",\"timeZone\":\"Europe/Berlin\"}",
                "{\"from\":\"00:00\",\"to\":\"23:59\",\"timeZone\":\"UTC\"}", "{\"from\":null,\"to\":null,\"timeZone\":null}");
        Map<String, Object> before = quietHours();
        int accepted = 0;
        for (int n = 0; n < 200; n++) {
            String input = fuzz.mutate(pick(fuzz.random(), valid));
            Response response = send(fuzz, alice, "PUT", path, input);
            boolean refused = findings.answer(n, "PUT /api/v1/gadgets/{id}/quiet-hours", input, response);
            Map<String, Object> after = quietHours();
            if (refused && !after.equals(before)) {
                findings.add(n, "PUT /api/v1/gadgets/{id}/quiet-hours", input, "refused, yet quiet hours changed from "
                        + before + " to " + after);
            }
            if (response.status() == 200) {
                accepted++;
            }
            before = after;
        }
        assertNoErrorsLogged(findings);
        findings.assertNone();
        System.out.printf("fuzz quiet hours: %d cases, %d accepted, seed %d%n", findings.cases(), accepted, SEED);
        alice.put(path, "{\"from\":null,\"to\":null,\"timeZone\":null}");
        StillWorking.assertFor(port, alice, bot);
    }

    private Map<String, Object> quietHours() {
        return jdbc.sql("select quiet_from, quiet_to, quiet_zone from rz_gadget where id = ?").param(bot.gadgetId())
                .query().singleRow();
    }

    @Test
    void directCommandsSendOnlyWhatFitsTheRegisteredCommands() {
        Findings findings = new Findings("commands", SEED);
        Mutator fuzz = mutator("commands");
        String path = "/api/v1/gadgets/" + bot.gadgetId() + "/commands";
        List<String> valid = List.of("{\"command\":\"display.show_text\",\"params\":{\"text\":\"hi\"}}",
                "{\"command\":\"speaker.play_url\",\"params\":{\"url\":\"https://example.org/a.mp3\",\"duration_ms\":50}}",
                "{\"command\":\"speaker.say\",\"params\":{\"text\":\"hello\"}}", "{\"command\":\"imu.read\",\"params\":{}}",
                "{\"command\":\"speaker.stop\"}");
        int sent = 0;
        for (int n = 0; n < 300; n++) {
            String input = fuzz.mutate(pick(fuzz.random(), valid));
            long invocationsBefore = bot.invocationCount();
            Response response = send(fuzz, alice, "POST", path, input);
            boolean refused = findings.answer(n, "POST /api/v1/gadgets/{id}/commands", input, response);
            if (response.status() == 200) {
                sent++;
            }
            if (refused && response.status() == 400 && bot.invocationCount() != invocationsBefore) {
                // a 400 is said before anything is sent; other refusals (409 busy) may follow a speaker.stop
                findings.add(n, "POST /api/v1/gadgets/{id}/commands", input, "refused with 400, yet the board got "
                        + bot.invocations().get(bot.invocations().size() - 1));
            }
        }
        bot.invocations().stream().filter(invocation -> invocation.handling()
                == dev.ringzero.firmware.ReceivedInvocation.Handling.REFUSED).forEach(invocation ->
                        findings.add(-1, "POST /api/v1/gadgets/{id}/commands", invocation.command() + " "
                                + invocation.params(), "sent, and the board refused it: "
                                + bot.storedResult(invocation.id())));
        assertNoErrorsLogged(findings);
        findings.assertNone();
        System.out.printf("fuzz commands: %d cases, %d answered 200, seed %d%n", findings.cases(), sent, SEED);
        StillWorking.assertFor(port, alice, bot);
    }

    private void assertNoErrorsLogged(Findings findings) {
        errorLog.errors().forEach(line -> findings.add(-1, "log", "(see the cases)", "ERROR logged: " + line));
    }
}
