package dev.ringzero.ecosystem.calendar;

import static dev.ringzero.ecosystem.calendar.ICalendarDaysTest.concat;
import static dev.ringzero.ecosystem.calendar.ICalendarDaysTest.event;
import static dev.ringzero.ecosystem.calendar.ICalendarDaysTest.ics;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.support.Api;
import dev.ringzero.support.PlatformTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * /api/v1/calendar on the running platform (PostgreSQL): an owner stores a feed served by a web
 * server in the test (or a file in the calendar directory), reads it back and sees today's events;
 * bad input is a 400 that says what is wrong and stores nothing; another owner sees nothing of it.
 */
class CalendarApiTest extends PlatformTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    /** Something on every day, so the test needs no fixed clock: the platform's clock is the real one. */
    private static final String EVERY_DAY = ics(concat(
            event("standup", "Daily standup", "DTSTART;TZID=Europe/Berlin:20200101T090000",
                    "DTEND;TZID=Europe/Berlin:20200101T091500", "RRULE:FREQ=DAILY", "LOCATION:Room 4"),
            event("day", "Every day", "DTSTART;VALUE=DATE:20200101", "RRULE:FREQ=DAILY")));

    @LocalServerPort
    int port;
    @Value("${ringzero.calendar.file-dir}")
    Path directory;

    private FeedServer server;
    private Api alice;

    @BeforeEach
    void start() throws IOException {
        server = new FeedServer().calendar("/alice.ics", EVERY_DAY);
        alice = Api.at(port).newOwner("cal");
        Files.createDirectories(directory);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static String feed(String field, String value, String timeZone) {
        return "{\"" + field + "\":\"" + value + "\"" + (timeZone == null ? "" : ",\"timeZone\":\"" + timeZone + "\"")
                + "}";
    }

    @Test
    void anOwnerStoresAFeedReadsItBackAndSeesTodaysEvents() {
        String url = server.url("/alice.ics?token=s3cret");

        Api.Response stored = alice.put("/api/v1/calendar", feed("url", url, "Europe/Berlin"));

        assertThat(stored.status()).as(stored.body()).isEqualTo(200);
        assertThat(stored.json().path("url").asText()).isEqualTo(url);
        assertThat(stored.json().has("file")).isFalse();
        assertThat(stored.json().path("timeZone").asText()).isEqualTo("Europe/Berlin");
        assertThat(stored.json().path("updatedAt").asText()).isNotEmpty();
        assertThat(alice.get("/api/v1/calendar").json()).isEqualTo(stored.json());

        LocalDate before = LocalDate.now(BERLIN);
        Api.Response today = alice.get("/api/v1/calendar/today");
        LocalDate after = LocalDate.now(BERLIN);

        assertThat(today.status()).as(today.body()).isEqualTo(200);
        JsonNode day = today.json();
        assertThat(day.path("timeZone").asText()).isEqualTo("Europe/Berlin");
        assertThat(LocalDate.parse(day.path("date").asText())).isBetween(before, after);
        String date = day.path("date").asText();
        assertThat(day.path("events")).hasSize(2);
        assertThat(day.at("/events/0/title").asText()).isEqualTo("Every day");
        assertThat(day.at("/events/0/allDay").asBoolean()).isTrue();
        assertThat(day.at("/events/0/start").asText()).startsWith(date + "T00:00:00+0");
        assertThat(day.at("/events/1/title").asText()).isEqualTo("Daily standup");
        assertThat(day.at("/events/1/start").asText()).startsWith(date + "T09:00:00+0");
        assertThat(day.at("/events/1/end").asText()).startsWith(date + "T09:15:00+0");
        assertThat(day.at("/events/1/allDay").asBoolean()).isFalse();
        assertThat(day.at("/events/1/location").asText()).isEqualTo("Room 4");
        assertThat(day.path("leftOut")).isEmpty();
    }

    @Test
    void aFileInTheCalendarDirectoryIsAFeedAndTheZoneDefaultsToUtc() throws IOException {
        String name = "alice-" + UUID.randomUUID() + ".ics";
        Files.writeString(directory.resolve(name), EVERY_DAY);

        Api.Response stored = alice.put("/api/v1/calendar", feed("file", name, null));

        assertThat(stored.status()).as(stored.body()).isEqualTo(200);
        assertThat(stored.json().path("file").asText()).isEqualTo(name);
        assertThat(stored.json().has("url")).isFalse();
        assertThat(stored.json().path("timeZone").asText()).isEqualTo("UTC");
        Api.Response today = alice.get("/api/v1/calendar/today");
        assertThat(today.status()).as(today.body()).isEqualTo(200);
        // 09:00 in Berlin is 07:00 or 08:00 UTC
        assertThat(today.json().at("/events/1/start").asText()).matches(".*T0[78]:00:00Z");
    }

    @Test
    void badInputIsA400ThatSaysWhatIsWrongAndStoresNothing() throws IOException {
        server.calendar("/page.html", "<!DOCTYPE html><html><body>Sign in to see this calendar</body></html>")
                .calendar("/broken.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nDTSTART:yesterday\r\n")
                .calendar("/huge.ics", "x".repeat(1024 * 1024 + 1));
        Files.writeString(directory.getParent().resolve("outside-" + UUID.randomUUID() + ".ics"), EVERY_DAY);
        String ok = server.url("/alice.ics");

        assertRefused(feed("url", ok, "Mars/Olympus"), "unknown-time-zone", "IANA time zone");
        assertRefused(feed("url", ok, "+02:00"), "unknown-time-zone", "'+02:00' is not one");
        assertRefused("{\"url\":\"" + ok + "\",\"file\":\"a.ics\"}", "invalid-calendar-feed", "exactly one of");
        assertRefused("{\"timeZone\":\"UTC\"}", "invalid-calendar-feed", "exactly one of");
        assertRefused(feed("url", "ftp://127.0.0.1/a.ics", null), "invalid-calendar-url", "http:// or https://");
        assertRefused(feed("url", "webcal://127.0.0.1/a.ics", null), "invalid-calendar-url", "instead of webcal://");
        assertRefused(feed("url", "http://alice:pw@127.0.0.1:" + server.port() + "/alice.ics", null),
                "invalid-calendar-url", "credentials");
        assertRefused(feed("file", "../outside.ics", null), "invalid-calendar-file", "calendar directory");
        assertRefused(feed("file", "/etc/passwd", null), "invalid-calendar-file", "not an absolute path");
        assertRefused(feed("file", "missing.ics", null), "calendar-unreachable", "there is no file 'missing.ics'");
        assertRefused(feed("url", server.url("/page.html"), null), "calendar-unparseable",
                "does not begin with BEGIN:VCALENDAR");
        assertRefused(feed("url", server.url("/broken.ics"), null), "calendar-unparseable", "not valid iCalendar: line");
        assertRefused(feed("url", server.url("/huge.ics"), null), "calendar-too-large", "larger than 1 MiB");
        assertRefused(feed("url", server.url("/gone.ics"), null), "calendar-unreachable", "answered HTTP 404");

        Api.Response unknownField = alice.put("/api/v1/calendar", "{\"url\":\"" + ok + "\",\"path\":\"/etc\"}");
        assertThat(unknownField.status()).isEqualTo(400);
        assertThat(unknownField.problemType()).endsWith("/malformed-request");
        assertThat(alice.put("/api/v1/calendar", "{\"url\":42}").status()).isEqualTo(400);
        assertThat(alice.put("/api/v1/calendar", "not json").status()).isEqualTo(400);

        Api.Response nothing = alice.get("/api/v1/calendar");
        assertThat(nothing.status()).isEqualTo(404);
        assertThat(nothing.problemType()).endsWith("/calendar-not-configured");
    }

    private void assertRefused(String body, String slug, String says) {
        Api.Response refused = alice.put("/api/v1/calendar", body);
        assertThat(refused.status()).as(body + " → " + refused.body()).isEqualTo(400);
        assertThat(refused.isProblem()).as(body).isTrue();
        assertThat(refused.problemType()).as(body).isEqualTo("https://ringzero.dev/problems/" + slug);
        assertThat(refused.json().path("detail").asText()).as(body).contains(says);
    }

    @Test
    void aStoredFeedThatStopsWorkingIsAConflictNamingTheReason() {
        server.calendar("/flaky.ics", EVERY_DAY);
        assertThat(alice.put("/api/v1/calendar", feed("url", server.url("/flaky.ics"), null)).status()).isEqualTo(200);
        server.serve("/flaky.ics", exchange -> FeedServer.send(exchange, 503, "text/plain", "maintenance"));

        Api.Response today = alice.get("/api/v1/calendar/today");

        assertThat(today.status()).as(today.body()).isEqualTo(409);
        assertThat(today.problemType()).endsWith("/calendar-unreachable");
        assertThat(today.json().path("detail").asText()).isEqualTo("the calendar feed cannot be read now: 127.0.0.1:"
                + server.port() + " answered HTTP 503 instead of the calendar");
    }

    @Test
    void anotherOwnerSeesNothingOfTheFeedAndCannotRemoveIt() {
        assertThat(alice.put("/api/v1/calendar", feed("url", server.url("/alice.ics"), "Europe/Berlin")).status())
                .isEqualTo(200);
        Api bob = Api.at(port).newOwner("cal-other");

        for (Api.Response response : new Api.Response[] {bob.get("/api/v1/calendar"),
            bob.get("/api/v1/calendar/today"), bob.delete("/api/v1/calendar")}) {
            assertThat(response.status()).isEqualTo(404);
            assertThat(response.body()).doesNotContain("alice.ics");
        }
        assertThat(alice.get("/api/v1/calendar").status()).isEqualTo(200);
        assertThat(alice.get("/api/v1/calendar/today").json().path("events")).hasSize(2);
        assertThat(Api.at(port).get("/api/v1/calendar").status()).as("no credential").isEqualTo(401);
    }

    @Test
    void aFeedIsReplacedByTheNextPutAndRemovedByDelete() throws IOException {
        String name = "alice-" + UUID.randomUUID() + ".ics";
        Files.writeString(directory.resolve(name), ics());
        assertThat(alice.put("/api/v1/calendar", feed("url", server.url("/alice.ics"), "Europe/Berlin")).status())
                .isEqualTo(200);
        assertThat(alice.get("/api/v1/calendar/today").json().path("events")).hasSize(2);

        Api.Response replaced = alice.put("/api/v1/calendar", feed("file", name, "Asia/Tokyo"));

        assertThat(replaced.status()).as(replaced.body()).isEqualTo(200);
        assertThat(alice.get("/api/v1/calendar").json().path("file").asText()).isEqualTo(name);
        assertThat(alice.get("/api/v1/calendar").json().has("url")).isFalse();
        assertThat(alice.get("/api/v1/calendar/today").json().path("timeZone").asText()).isEqualTo("Asia/Tokyo");
        assertThat(alice.get("/api/v1/calendar/today").json().path("events")).as("the new feed, at once").isEmpty();

        assertThat(alice.delete("/api/v1/calendar").status()).isEqualTo(204);
        assertThat(alice.get("/api/v1/calendar").status()).isEqualTo(404);
        assertThat(alice.delete("/api/v1/calendar").status()).isEqualTo(404);
        Api.Response today = alice.get("/api/v1/calendar/today");
        assertThat(today.status()).isEqualTo(404);
        assertThat(today.problemType()).endsWith("/calendar-not-configured");
        assertThat(today.json().path("detail").asText()).contains("PUT /api/v1/calendar");
    }

    @Test
    void theRoutesAreInTheOpenApiDescription() {
        JsonNode paths = Api.at(port).get("/v3/api-docs").json().path("paths");

        assertThat(paths.path("/api/v1/calendar").has("put")).isTrue();
        assertThat(paths.path("/api/v1/calendar").has("get")).isTrue();
        assertThat(paths.path("/api/v1/calendar").has("delete")).isTrue();
        assertThat(paths.path("/api/v1/calendar/today").has("get")).isTrue();
    }
}
