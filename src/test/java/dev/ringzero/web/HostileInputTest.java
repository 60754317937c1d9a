package dev.ringzero.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ringzero.support.Definitions;
import dev.ringzero.support.OwnerWithDeskBotTest;
import org.junit.jupiter.api.Test;

/**
 * Inputs a stranger sent (issue 23): each gets a clear problem+json 4xx with a stable type, never a
 * 500, and nothing is stored from a refused input.
 */
class HostileInputTest extends OwnerWithDeskBotTest {

    @Test
    void aDirectCommandWhoseParametersDoNotFitTheRegisteredOnesIsRefusedAndNeverSent() {
        for (String params : new String[] {"{\"url\":5}", "{}", "{\"url\":\"https://example.org/a.mp3\",\"loud\":true}"}) {
            var response = alice.post("/api/v1/gadgets/" + bot.gadgetId() + "/commands",
                    "{\"command\":\"speaker.play_url\",\"params\":" + params + "}");
            assertThat(response.status()).as(params).isEqualTo(400);
            assertThat(response.problemType()).as(params).endsWith("/invalid-params");
        }
        assertThat(bot.invocations()).isEmpty();
    }

    @Test
    void anUnmatchedEventTooLargeForTheInboxTextReachesTheInboxMarkedTruncated() {
        String large = "x".repeat(6_000);
        bot.emitEvent("ptt_started", java.util.Map.of("note", large));

        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() ->
                alice.get("/api/v1/inbox").json().findValuesAsText("text").stream()
                        .anyMatch(text -> text.contains("ptt_started")));
        var message = alice.get("/api/v1/inbox").json().get(0);
        assertThat(message.path("text").asText()).hasSizeLessThanOrEqualTo(4000).endsWith("[truncated; the whole "
                + "event is in data]");
        assertThat(message.path("data").asText()).contains(large);
    }

    @Test
    void aSavedDryRunWithATriggerInTheDefinitionsShapeIsUnderstood() {
        String agent = alice.post("/api/v1/gadget-agents", Definitions.barkWhenShakenHard(bot.gadgetId(), null))
                .json().path("id").asText();

        var response = alice.post("/api/v1/gadget-agents/" + agent + "/dry-run",
                "{\"trigger\":{\"kind\":\"gadget.event\",\"gadget\":\"" + bot.gadgetId()
                        + "\",\"event\":\"shaken\",\"data\":{\"strength\":\"hard\"}}}");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().path("match").path("matched").asBoolean()).isTrue();
    }

    @Test
    void aSavedDryRunWithAMisshapenTriggerIsABadRequest() {
        String agent = alice.post("/api/v1/gadget-agents", Definitions.barkWhenShakenHard(bot.gadgetId(), null))
                .json().path("id").asText();

        for (String trigger : new String[] {"{\"kind\":\"gadget.event\",\"event\":5}",
                "{\"kind\":\"gadget.event\",\"gadget\":[1]}", "{\"kind\":7}",
                "{\"kind\":\"gadget.event\",\"event\":{\"name\":\"shaken\",\"data\":\"hard\"}}", "\"shaken\""}) {
            var response = alice.post("/api/v1/gadget-agents/" + agent + "/dry-run", "{\"trigger\":" + trigger + "}");
            assertThat(response.status()).as(trigger).isEqualTo(400);
            assertThat(response.problemType()).as(trigger).endsWith("/invalid-trigger");
        }
    }

    @Test
    void quietHoursTakeHoursAndMinutesOnlyAndRefuseTheRest() {
        var seconds = alice.put("/api/v1/gadgets/" + bot.gadgetId() + "/quiet-hours",
                "{\"from\":\"07:00:00\",\"to\":\"08:00\",\"timeZone\":\"UTC\"}");
        var zone = alice.put("/api/v1/gadgets/" + bot.gadgetId() + "/quiet-hours",
                "{\"from\":\"07:00\",\"to\":\"08:00\",\"timeZone\":\"Mars/Olympus\"}");
        var halfOpen = alice.put("/api/v1/gadgets/" + bot.gadgetId() + "/quiet-hours", "{\"from\":\"07:00\"}");

        assertThat(seconds.status()).isEqualTo(400);
        assertThat(seconds.problemType()).endsWith("/invalid-quiet-hours");
        assertThat(zone.status()).isEqualTo(400);
        assertThat(halfOpen.status()).isEqualTo(400);
        assertThat(alice.put("/api/v1/gadgets/" + bot.gadgetId() + "/quiet-hours",
                "{\"from\":\"22:00\",\"to\":\"07:00\",\"timeZone\":\"Europe/Berlin\"}").status()).isEqualTo(200);
    }

    @Test
    void aBodyOfNoUsableMediaTypeIsUnsupportedMediaType() {
        String definition = Definitions.barkWhenShakenHard(bot.gadgetId(), null);
        for (String contentType : new String[] {"*/*", "text/plain", "application/xml", null}) {
            var response = alice.raw("POST", "/api/v1/gadget-agents", contentType, definition);
            assertThat(response.status()).as(String.valueOf(contentType)).isEqualTo(415);
            assertThat(response.isProblem()).as(String.valueOf(contentType)).isTrue();
            assertThat(response.problemType()).endsWith("/unsupported-media-type");
        }
        assertThat(alice.get("/api/v1/gadget-agents").json()).as("nothing stored").isEmpty();
    }

    @Test
    void anUnknownRouteAndAWrongMethodAnswerProblemJson() {
        var unknown = alice.get("/api/v1/no-such-route");
        var wrongMethod = alice.raw("PATCH", "/api/v1/gadgets", "application/json", "{}");

        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.isProblem()).isTrue();
        assertThat(unknown.problemType()).endsWith("/not-found");
        assertThat(wrongMethod.status()).isEqualTo(405);
        assertThat(wrongMethod.isProblem()).isTrue();
        assertThat(wrongMethod.problemType()).endsWith("/method-not-allowed");
    }

    @Test
    void trailingGarbageAndConcatenatedDocumentsAreMalformed() {
        String definition = Definitions.barkWhenShakenHard(bot.gadgetId(), null);
        for (String body : new String[] {definition + " garbage", definition + definition, definition + "}"}) {
            var response = alice.post("/api/v1/gadget-agents", body);
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.problemType()).endsWith("/malformed-request");
        }
        assertThat(alice.get("/api/v1/gadget-agents").json()).as("nothing stored").isEmpty();
    }

    @Test
    void aScalarOfTheWrongTypeIsNotCoercedIntoAnId() {
        var response = alice.post("/api/v1/gadgets", "{\"id\":true}");

        assertThat(response.status()).isEqualTo(400);
        assertThat(alice.get("/api/v1/gadgets/true").status()).isEqualTo(404);
    }

    @Test
    void controlCharactersAndLoneSurrogatesInTextAreRefused() {
        for (String name : new String[] {"desk\\u0000bot", "bell\\u0007", "half \\ud800 pair"}) {
            var pairing = alice.post("/api/v1/gadgets", "{\"id\":\"g-" + Math.abs(name.hashCode()) + "\",\"name\":\""
                    + name + "\"}");
            assertThat(pairing.status()).as(name).isEqualTo(400);
            var definition = alice.post("/api/v1/gadget-agents", Definitions.barkWhenShakenHard(bot.gadgetId(), null)
                    .replace("\"Bark when shaken\"", "\"" + name + "\""));
            assertThat(definition.status()).as(name).isEqualTo(400);
        }
        var gadgets = alice.get("/api/v1/gadgets");
        assertThat(gadgets.status()).isEqualTo(200);
        assertThat(gadgets.json()).as("only the desk bot").hasSize(1);
        assertThat(alice.post("/api/v1/gadgets", "{\"id\":\"tabbed\",\"name\":\"line\\tone\"}").status())
                .as("a tab is text").isEqualTo(201);
    }
    // found by fuzz.RestFuzzTest (seed 20230023): each was a 500

    @Test
    void aVeryLongCommandNameIsAnInvalidDefinitionNotAStackOverflow() {
        String definition = Definitions.barkWhenShakenHard(bot.gadgetId(), null)
                .replace("\"command\":\"speaker.play_url\"", "\"command\":\"" + "speaker.play_url".repeat(4000) + "\"");
        for (String route : new String[] {"/api/v1/gadget-agents", "/api/v1/gadget-agents/dry-run"}) {
            var response = alice.post(route, definition);
            assertThat(response.status()).as(route).isEqualTo(400);
            assertThat(response.problemType()).as(route).endsWith("/invalid-definition");
        }
        assertThat(alice.get("/api/v1/gadget-agents").json()).as("nothing stored").isEmpty();
    }

    @Test
    void aNumberBeyondADoubleIsAnInvalidDefinition() {
        String definition = Definitions.barkWhenShakenHard(bot.gadgetId(), null)
                .replace("{\"kind\":\"invoke\"}", "{\"kind\":-1e400}");
        var response = alice.post("/api/v1/gadget-agents", definition);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.problemType()).endsWith("/invalid-definition");
        assertThat(response.body()).contains("out of range");
        assertThat(alice.get("/api/v1/gadget-agents").json()).as("nothing stored").isEmpty();
    }

    @Test
    void aSoundCommandWithMisfitParametersStopsNothingThatPlays() {
        var playing = alice.post("/api/v1/gadgets/" + bot.gadgetId() + "/commands",
                "{\"command\":\"speaker.play_url\",\"params\":{\"url\":\"https://example.org/a.mp3\",\"duration_ms\":3000}}");
        assertThat(playing.status()).isEqualTo(200);

        var refused = alice.post("/api/v1/gadgets/" + bot.gadgetId() + "/commands", "{\"command\":\"speaker.say\",\"params\":{}}");

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.problemType()).endsWith("/invalid-params");
        assertThat(bot.invocations()).as("no speaker.stop for a command never sent").hasSize(1);
    }
}
