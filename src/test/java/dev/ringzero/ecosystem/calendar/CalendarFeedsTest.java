package dev.ringzero.ecosystem.calendar;

import static dev.ringzero.ecosystem.calendar.ICalendarDaysTest.concat;
import static dev.ringzero.ecosystem.calendar.ICalendarDaysTest.event;
import static dev.ringzero.ecosystem.calendar.ICalendarDaysTest.ics;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.ringzero.Refusal;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The service the llm tools call, on a clock the test moves and feeds in a directory of its own. */
class CalendarFeedsTest {

    private static final String MONDAY = ics(concat(
            event("standup", "Standup", "DTSTART;TZID=Europe/Berlin:20250324T090000",
                    "DTEND;TZID=Europe/Berlin:20250324T091500"),
            event("review", "Review", "DTSTART;TZID=Europe/Berlin:20250324T110000",
                    "DTEND;TZID=Europe/Berlin:20250324T120000", "LOCATION:Room 4"),
            event("holiday", "Company day", "DTSTART;VALUE=DATE:20250324")));

    @TempDir
    Path directory;

    private final MovableClock clock = new MovableClock(Instant.parse("2025-03-24T07:00:00Z"));
    private final InMemoryStore store = new InMemoryStore();
    private CalendarFeeds underTest;

    @BeforeEach
    void feeds() {
        underTest = new CalendarFeeds(store, new FeedFetcher(directory, Duration.ofSeconds(5), 1024 * 1024), clock,
                Duration.ofSeconds(60));
    }

    private void write(String name, String text) throws IOException {
        Files.writeString(directory.resolve(name), text);
    }

    @Test
    void todayIsTheDateInTheOwnersZone() throws IOException {
        write("late.ics", ics(event("late", "Late", "DTSTART:20250324T233000Z", "DURATION:PT15M")));
        clock.set("2025-03-24T23:40:00Z");
        underTest.configure("alice", null, "late.ics", "Europe/Berlin");
        underTest.configure("bob", null, "late.ics", null);

        CalendarDay alice = underTest.today("alice");
        CalendarDay bob = underTest.today("bob");

        assertThat(alice.date()).isEqualTo(LocalDate.of(2025, 3, 25));
        assertThat(alice.events()).extracting(CalendarEvent::title).containsExactly("Late");
        assertThat(bob.timeZone()).as("the default zone").isEqualTo(ZoneId.of("UTC"));
        assertThat(bob.date()).isEqualTo(LocalDate.of(2025, 3, 24));
        assertThat(bob.events()).extracting(CalendarEvent::title).containsExactly("Late");
    }

    @Test
    void theNextMeetingIsTheFirstThatHasNotEndedAndNeverAnAllDayEvent() throws IOException {
        write("monday.ics", MONDAY);
        underTest.configure("alice", null, "monday.ics", "Europe/Berlin");

        clock.set("2025-03-24T06:00:00Z");
        assertThat(underTest.nextMeeting("alice")).map(CalendarEvent::title).hasValue("Standup");
        clock.set("2025-03-24T08:10:00Z");
        assertThat(underTest.nextMeeting("alice")).as("under way").map(CalendarEvent::title).hasValue("Standup");
        clock.set("2025-03-24T08:15:00Z");
        assertThat(underTest.nextMeeting("alice")).as("ended at 09:15").map(CalendarEvent::title).hasValue("Review");
        assertThat(underTest.nextMeeting("alice")).map(CalendarEvent::location).hasValue("Room 4");
        clock.set("2025-03-24T12:00:00Z");
        assertThat(underTest.nextMeeting("alice")).isEmpty();
        assertThat(underTest.today("alice").events()).extracting(CalendarEvent::title).contains("Company day");
    }

    @Test
    void aDayReadIsKeptForTheCacheTimeButNotAcrossAChangeOfTheFeed() throws IOException {
        write("a.ics", MONDAY);
        underTest.configure("alice", null, "a.ics", "Europe/Berlin");
        assertThat(underTest.today("alice").events()).hasSize(3);

        write("a.ics", ics());
        assertThat(underTest.today("alice").events()).as("within 60 s").hasSize(3);
        clock.advance(Duration.ofSeconds(61));
        assertThat(underTest.today("alice").events()).as("after 60 s").isEmpty();

        write("a.ics", MONDAY);
        underTest.configure("alice", null, "a.ics", "Europe/Berlin");
        assertThat(underTest.today("alice").events()).as("stored again").hasSize(3);
        write("a.ics", ics());
        store.feeds.computeIfPresent("alice", (owner, feed) -> new CalendarFeed(null, "a.ics", ZoneId.of("UTC"),
                feed.updatedAt().plusSeconds(1)));
        assertThat(underTest.today("alice").events()).as("changed by another node").isEmpty();
    }

    @Test
    void withoutACacheTimeEveryCallReads() throws IOException {
        CalendarFeeds uncached = new CalendarFeeds(store, new FeedFetcher(directory, Duration.ofSeconds(5), 1024),
                clock, Duration.ZERO);
        write("a.ics", ics(event("x", "X", "DTSTART:20250324T100000Z")));
        uncached.configure("alice", null, "a.ics", null);
        assertThat(uncached.today("alice").events()).hasSize(1);

        write("a.ics", ics());

        assertThat(uncached.today("alice").events()).isEmpty();
    }

    @Test
    void withoutAFeedTheAnswerSaysSoAndAFeedThatBreaksIsAConflictThatIsNotKept() throws IOException {
        assertThatExceptionOfType(Refusal.class).isThrownBy(() -> underTest.today("alice"))
                .satisfies(refusal -> {
                    assertThat(refusal.kind()).isEqualTo(Refusal.Kind.NOT_FOUND);
                    assertThat(refusal.slug()).isEqualTo("calendar-not-configured");
                });
        assertThatExceptionOfType(Refusal.class).isThrownBy(() -> underTest.nextMeeting("alice"))
                .satisfies(refusal -> assertThat(refusal.slug()).isEqualTo("calendar-not-configured"));

        write("a.ics", MONDAY);
        underTest.configure("alice", null, "a.ics", "Europe/Berlin");
        Files.delete(directory.resolve("a.ics"));
        assertThatExceptionOfType(Refusal.class).isThrownBy(() -> underTest.today("alice"))
                .satisfies(refusal -> {
                    assertThat(refusal.kind()).isEqualTo(Refusal.Kind.CONFLICT);
                    assertThat(refusal.slug()).isEqualTo(FeedProblem.UNREACHABLE);
                })
                .withMessage("the calendar feed cannot be read now: there is no file 'a.ics' in the platform's "
                        + "calendar directory");

        write("a.ics", "<html>moved</html>");
        assertThatExceptionOfType(Refusal.class).as("the failure was not kept").isThrownBy(() -> underTest.today("alice"))
                .satisfies(refusal -> assertThat(refusal.slug()).isEqualTo(FeedProblem.UNPARSEABLE));
    }

    @Test
    void aFeedIsStoredOnlyWhenItCanBeReadAndEverythingElseIsRefusedWithItsReason() throws IOException {
        write("garbage.ics", "BEGIN:VCALENDAR\r\nthis is not iCalendar\r\n");
        write("a.ics", MONDAY);

        assertRefused(() -> underTest.configure("alice", null, null, null), "invalid-calendar-feed");
        assertRefused(() -> underTest.configure("alice", "https://example.org/a.ics", "a.ics", null),
                "invalid-calendar-feed");
        assertRefused(() -> underTest.configure("alice", " ", "", null), "invalid-calendar-feed");
        for (String zone : new String[] {"Mars/Olympus", "+02:00", "UTC+2", "", "europe/berlin", "ical4j~x"}) {
            assertRefused(() -> underTest.configure("alice", null, "a.ics", zone), "unknown-time-zone");
        }
        assertRefused(() -> underTest.configure("alice", null, "garbage.ics", null), FeedProblem.UNPARSEABLE);
        assertRefused(() -> underTest.configure("alice", null, "none.ics", null), FeedProblem.UNREACHABLE);
        assertRefused(() -> underTest.configure("alice", null, "../a.ics", null), "invalid-calendar-file");
        assertRefused(() -> underTest.configure("alice", "ftp://example.org/a.ics", null, null), "invalid-calendar-url");

        assertThat(store.feeds).as("nothing stored").isEmpty();
        assertThat(underTest.configure("alice", null, "a.ics", "America/New_York"))
                .isEqualTo(new CalendarFeed(null, "a.ics", ZoneId.of("America/New_York"), clock.instant()));
    }

    private static void assertRefused(Runnable call, String slug) {
        assertThatExceptionOfType(Refusal.class).isThrownBy(call::run).satisfies(refusal -> {
            assertThat(refusal.kind()).isEqualTo(Refusal.Kind.INVALID);
            assertThat(refusal.slug()).isEqualTo(slug);
        });
    }

    @Test
    void removingTheFeedEndsItsDay() throws IOException {
        write("a.ics", MONDAY);
        underTest.configure("alice", null, "a.ics", null);
        underTest.today("alice");

        assertThat(underTest.remove("alice")).isTrue();

        assertThat(underTest.remove("alice")).isFalse();
        assertThatExceptionOfType(Refusal.class).isThrownBy(() -> underTest.today("alice"));
    }

    /** The store's contract without a database; the real one is exercised by CalendarApiTest. */
    static final class InMemoryStore extends CalendarFeedStore {

        final Map<String, CalendarFeed> feeds = new ConcurrentHashMap<>();

        InMemoryStore() {
            super(null);
        }

        @Override
        Optional<CalendarFeed> find(String ownerId) {
            return Optional.ofNullable(feeds.get(ownerId));
        }

        @Override
        void save(String ownerId, CalendarFeed feed) {
            feeds.put(ownerId, feed);
        }

        @Override
        boolean delete(String ownerId) {
            return feeds.remove(ownerId) != null;
        }
    }

    static final class MovableClock extends Clock {

        private volatile Instant now;

        MovableClock(Instant now) {
            this.now = now;
        }

        void set(String instant) {
            now = Instant.parse(instant);
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
