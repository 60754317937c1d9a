package dev.ringzero.ecosystem.calendar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Which events make the owner's day: recurrences, exceptions, all-day events, time zones and
 * midnight, on fixed dates (Monday 24 March 2025; Berlin is at +01:00 until the 30th, then +02:00).
 */
class ICalendarDaysTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final LocalDate MONDAY = LocalDate.of(2025, 3, 24);

    static String ics(String... lines) {
        List<String> all = new ArrayList<>(List.of("BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//RingZero//test//EN"));
        all.addAll(List.of(lines));
        all.add("END:VCALENDAR");
        return String.join("\r\n", all) + "\r\n";
    }

    static String[] event(String uid, String summary, String... properties) {
        List<String> lines = new ArrayList<>(List.of("BEGIN:VEVENT", "UID:" + uid, "DTSTAMP:20250101T000000Z",
                "SUMMARY:" + summary));
        lines.addAll(List.of(properties));
        lines.add("END:VEVENT");
        return lines.toArray(String[]::new);
    }

    static String[] concat(String[]... parts) {
        List<String> all = new ArrayList<>();
        for (String[] part : parts) {
            all.addAll(List.of(part));
        }
        return all.toArray(String[]::new);
    }

    private static final String WEEKLY_STANDUP = ics(event("standup", "Standup",
            "DTSTART;TZID=Europe/Berlin:20250303T090000", "DTEND;TZID=Europe/Berlin:20250303T091500",
            "RRULE:FREQ=WEEKLY;BYDAY=MO", "LOCATION:Room 4"));

    @Test
    void aWeeklyEventOccursOnItsWeekdayAtItsLocalTimeAcrossTheChangeToSummerTime() {
        CalendarDay monday = ICalendarDays.day(WEEKLY_STANDUP, BERLIN, MONDAY);
        CalendarDay tuesday = ICalendarDays.day(WEEKLY_STANDUP, BERLIN, MONDAY.plusDays(1));
        CalendarDay afterTheChange = ICalendarDays.day(WEEKLY_STANDUP, BERLIN, MONDAY.plusDays(7));

        assertThat(monday.events()).containsExactly(new CalendarEvent("Standup",
                OffsetDateTime.parse("2025-03-24T09:00+01:00"), OffsetDateTime.parse("2025-03-24T09:15+01:00"), false,
                "Room 4"));
        assertThat(monday.timeZone()).isEqualTo(BERLIN);
        assertThat(monday.date()).isEqualTo(MONDAY);
        assertThat(monday.leftOut()).isEmpty();
        assertThat(tuesday.events()).isEmpty();
        assertThat(afterTheChange.events()).extracting(CalendarEvent::start)
                .containsExactly(OffsetDateTime.parse("2025-03-31T09:00+02:00"));
    }

    @Test
    void exdateRemovesItsOccurrenceWhetherWrittenInTheEventsZoneOrInUtc() {
        String feed = ics(event("standup", "Standup",
                "DTSTART;TZID=Europe/Berlin:20250303T090000", "DTEND;TZID=Europe/Berlin:20250303T091500",
                "RRULE:FREQ=WEEKLY;BYDAY=MO",
                "EXDATE;TZID=Europe/Berlin:20250310T090000",
                // 08:00 UTC is 09:00 in Berlin: the same occurrence, written another way
                "EXDATE:20250317T080000Z"));

        assertThat(ICalendarDays.day(feed, BERLIN, LocalDate.of(2025, 3, 3)).events()).hasSize(1);
        assertThat(ICalendarDays.day(feed, BERLIN, LocalDate.of(2025, 3, 10)).events()).isEmpty();
        assertThat(ICalendarDays.day(feed, BERLIN, LocalDate.of(2025, 3, 17)).events()).isEmpty();
        assertThat(ICalendarDays.day(feed, BERLIN, MONDAY).events()).hasSize(1);
    }

    @Test
    void aMovedOccurrenceReplacesTheOriginalAndACancelledOneRemovesIt() {
        String feed = ics(concat(
                event("standup", "Standup", "DTSTART;TZID=Europe/Berlin:20250303T090000",
                        "DTEND;TZID=Europe/Berlin:20250303T091500", "RRULE:FREQ=WEEKLY;BYDAY=MO"),
                event("standup", "Standup (moved)", "RECURRENCE-ID;TZID=Europe/Berlin:20250324T090000",
                        "DTSTART;TZID=Europe/Berlin:20250324T110000", "DTEND;TZID=Europe/Berlin:20250324T111500"),
                event("standup", "Standup", "RECURRENCE-ID;TZID=Europe/Berlin:20250331T090000",
                        "DTSTART;TZID=Europe/Berlin:20250331T090000", "DTEND;TZID=Europe/Berlin:20250331T091500",
                        "STATUS:CANCELLED")));

        assertThat(ICalendarDays.day(feed, BERLIN, MONDAY).events())
                .extracting(CalendarEvent::title, CalendarEvent::start)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("Standup (moved)",
                        OffsetDateTime.parse("2025-03-24T11:00+01:00")));
        assertThat(ICalendarDays.day(feed, BERLIN, MONDAY.plusDays(7)).events()).isEmpty();
        assertThat(ICalendarDays.day(feed, BERLIN, MONDAY.plusDays(14)).events()).hasSize(1);
    }

    @Test
    void anAllDayEventCoversTheOwnersWholeDayAndItsEndDateIsExclusive() {
        String feed = ics(concat(
                event("holiday", "Holiday", "DTSTART;VALUE=DATE:20250324"),
                event("trip", "Trip", "DTSTART;VALUE=DATE:20250322", "DTEND;VALUE=DATE:20250325")));

        CalendarDay monday = ICalendarDays.day(feed, BERLIN, MONDAY);
        CalendarDay tuesday = ICalendarDays.day(feed, BERLIN, MONDAY.plusDays(1));

        assertThat(monday.events()).containsExactly(
                new CalendarEvent("Trip", OffsetDateTime.parse("2025-03-22T00:00+01:00"),
                        OffsetDateTime.parse("2025-03-25T00:00+01:00"), true, null),
                new CalendarEvent("Holiday", OffsetDateTime.parse("2025-03-24T00:00+01:00"),
                        OffsetDateTime.parse("2025-03-25T00:00+01:00"), true, null));
        assertThat(tuesday.events()).isEmpty();
    }

    @Test
    void theOwnersZoneDecidesTheDayOfAnEventGivenInAnotherZoneOrInUtc() {
        String feed = ics(concat(
                event("ny", "New York call", "DTSTART;TZID=America/New_York:20250324T080000",
                        "DTEND;TZID=America/New_York:20250324T090000"),
                // Tuesday 07:00 in Tokyo is Monday 23:00 in Berlin
                event("tokyo", "Tokyo call", "DTSTART;TZID=Asia/Tokyo:20250325T070000",
                        "DTEND;TZID=Asia/Tokyo:20250325T073000"),
                // Monday 23:30 UTC is Tuesday 00:30 in Berlin
                event("utc", "Late UTC", "DTSTART:20250324T233000Z", "DTEND:20250324T234500Z")));

        CalendarDay berlin = ICalendarDays.day(feed, BERLIN, MONDAY);
        CalendarDay utc = ICalendarDays.day(feed, ZoneId.of("UTC"), MONDAY);

        assertThat(berlin.events()).extracting(CalendarEvent::title, CalendarEvent::start).containsExactly(
                org.assertj.core.groups.Tuple.tuple("New York call", OffsetDateTime.parse("2025-03-24T13:00+01:00")),
                org.assertj.core.groups.Tuple.tuple("Tokyo call", OffsetDateTime.parse("2025-03-24T23:00+01:00")));
        assertThat(utc.events()).extracting(CalendarEvent::title)
                .containsExactly("New York call", "Tokyo call", "Late UTC");
        assertThat(utc.events().get(2).start()).isEqualTo(OffsetDateTime.parse("2025-03-24T23:30Z"));
    }

    @Test
    void aFloatingTimeIsTheOwnersLocalTime() {
        String feed = ics(event("f", "Floating", "DTSTART:20250324T100000", "DTEND:20250324T110000"));

        assertThat(ICalendarDays.day(feed, BERLIN, MONDAY).events().get(0).start())
                .isEqualTo(OffsetDateTime.parse("2025-03-24T10:00+01:00"));
        assertThat(ICalendarDays.day(feed, ZoneId.of("America/New_York"), MONDAY).events().get(0).start())
                .isEqualTo(OffsetDateTime.parse("2025-03-24T10:00-04:00"));
    }

    @Test
    void anEventAcrossMidnightBelongsToBothDaysWithItsRealStartAndEnd() {
        String feed = ics(concat(
                event("night", "Night shift", "DTSTART;TZID=Europe/Berlin:20250323T220000",
                        "DTEND;TZID=Europe/Berlin:20250324T020000"),
                event("late", "Ends at midnight", "DTSTART;TZID=Europe/Berlin:20250323T230000",
                        "DTEND;TZID=Europe/Berlin:20250324T000000")));

        CalendarDay sunday = ICalendarDays.day(feed, BERLIN, MONDAY.minusDays(1));
        CalendarDay monday = ICalendarDays.day(feed, BERLIN, MONDAY);

        assertThat(sunday.events()).extracting(CalendarEvent::title).containsExactly("Night shift", "Ends at midnight");
        assertThat(monday.events()).containsExactly(new CalendarEvent("Night shift",
                OffsetDateTime.parse("2025-03-23T22:00+01:00"), OffsetDateTime.parse("2025-03-24T02:00+01:00"), false,
                null));
    }

    @Test
    void aRecurringEventAcrossMidnightShowsItsOccurrenceThatBeganTheDayBefore() {
        String feed = ics(event("night", "Night shift", "DTSTART;TZID=Europe/Berlin:20250301T230000",
                "DTEND;TZID=Europe/Berlin:20250302T010000", "RRULE:FREQ=DAILY"));

        assertThat(ICalendarDays.day(feed, BERLIN, MONDAY).events()).extracting(CalendarEvent::start).containsExactly(
                OffsetDateTime.parse("2025-03-23T23:00+01:00"), OffsetDateTime.parse("2025-03-24T23:00+01:00"));
    }

    @Test
    void aDayWithoutEventsIsEmptyAndNothingIsLeftOut() {
        CalendarDay sunday = ICalendarDays.day(WEEKLY_STANDUP, BERLIN, LocalDate.of(2025, 3, 23));
        CalendarDay noEventsAtAll = ICalendarDays.day(ics(), BERLIN, MONDAY);

        assertThat(sunday.events()).isEmpty();
        assertThat(sunday.leftOut()).isEmpty();
        assertThat(noEventsAtAll.events()).isEmpty();
    }

    @Test
    void eventsAreSortedByStartWithAllDayEventsFirst() {
        String feed = ics(concat(
                event("c", "Lunch", "DTSTART;TZID=Europe/Berlin:20250324T120000", "DURATION:PT1H"),
                event("a", "Breakfast", "DTSTART;TZID=Europe/Berlin:20250324T000000",
                        "DTEND;TZID=Europe/Berlin:20250324T003000"),
                event("b", "Birthday", "DTSTART;VALUE=DATE:20250324")));

        assertThat(ICalendarDays.day(feed, BERLIN, MONDAY).events()).extracting(CalendarEvent::title)
                .containsExactly("Birthday", "Breakfast", "Lunch");
    }

    @Test
    void anEventInAZoneNobodyKnowsIsLeftOutAndSaidSoWhileTheOthersStay() {
        String feed = ics(concat(
                event("mars", "Mars meeting", "DTSTART;TZID=Mars/Olympus:20250324T100000",
                        "DTEND;TZID=Mars/Olympus:20250324T110000"),
                event("ok", "Earth meeting", "DTSTART;TZID=Europe/Berlin:20250324T100000",
                        "DTEND;TZID=Europe/Berlin:20250324T110000")));

        CalendarDay day = ICalendarDays.day(feed, BERLIN, MONDAY);

        assertThat(day.events()).extracting(CalendarEvent::title).containsExactly("Earth meeting");
        assertThat(day.leftOut()).singleElement().asString().contains("Mars meeting", "Mars/Olympus");
    }

    @Test
    void aZoneDefinedOnlyByTheFeedsVtimezoneAndAWindowsZoneNameAreUnderstood() {
        String feed = ics(concat(
                new String[] {"BEGIN:VTIMEZONE", "TZID:Customized Time Zone", "BEGIN:STANDARD",
                    "DTSTART:16010101T000000", "TZOFFSETFROM:+0530", "TZOFFSETTO:+0530", "END:STANDARD",
                    "END:VTIMEZONE"},
                event("custom", "Custom", "DTSTART;TZID=Customized Time Zone:20250324T150000",
                        "DTEND;TZID=Customized Time Zone:20250324T153000"),
                event("windows", "Windows", "DTSTART;TZID=W. Europe Standard Time:20250324T160000",
                        "DTEND;TZID=W. Europe Standard Time:20250324T163000")));

        assertThat(ICalendarDays.day(feed, BERLIN, MONDAY).events()).extracting(CalendarEvent::start).containsExactly(
                OffsetDateTime.parse("2025-03-24T10:30+01:00"), OffsetDateTime.parse("2025-03-24T16:00+01:00"));
    }

    @Test
    void aNamedZonesVtimezoneIsNotRegisteredWithTheJdkAgainAtEveryRead() {
        String feed = ics(concat(
                new String[] {"BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19701025T030000",
                    "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
                    "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:19700329T020000", "TZOFFSETFROM:+0100",
                    "TZOFFSETTO:+0200", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT", "END:VTIMEZONE"},
                event("a", "Standup", "DTSTART;TZID=Europe/Berlin:20250324T090000",
                        "DTEND;TZID=Europe/Berlin:20250324T091500")));
        long before = ical4jZones();

        for (int i = 0; i < 20; i++) {
            assertThat(ICalendarDays.day(feed, BERLIN, MONDAY).events()).hasSize(1);
        }

        assertThat(ical4jZones()).isEqualTo(before);
    }

    private static long ical4jZones() {
        return ZoneId.getAvailableZoneIds().stream().filter(id -> id.startsWith("ical4j~")).count();
    }

    @Test
    void aRecurrenceTooFrequentToExpandIsLeftOutAndSaidSo() {
        String feed = ics(concat(
                event("tick", "Every minute", "DTSTART:20240101T000000Z", "DURATION:PT1M", "RRULE:FREQ=MINUTELY"),
                event("ok", "Standup", "DTSTART;TZID=Europe/Berlin:20250324T090000", "DURATION:PT15M")));

        CalendarDay day = ICalendarDays.day(feed, BERLIN, MONDAY);

        assertThat(day.events()).extracting(CalendarEvent::title).containsExactly("Standup");
        assertThat(day.leftOut()).singleElement().asString().contains("Every minute", "repeats too often");
    }

    @Test
    void aRecurrenceThatEndedLongAgoOrIsCountedOutIsAbsentAndNotTooFrequentToExpand() {
        String feed = ics(concat(
                event("until", "Until", "DTSTART:20000101T000000Z", "DURATION:PT1M",
                        "RRULE:FREQ=MINUTELY;UNTIL=20000102T000000Z"),
                event("count", "Counted", "DTSTART;TZID=Europe/Berlin:20250303T090000", "DURATION:PT15M",
                        "RRULE:FREQ=WEEKLY;COUNT=3")));

        CalendarDay day = ICalendarDays.day(feed, BERLIN, MONDAY);

        assertThat(day.events()).isEmpty();
        assertThat(day.leftOut()).as("an ended rule is not walked from 2000 to today").isEmpty();
        assertThat(ICalendarDays.day(feed, BERLIN, LocalDate.of(2000, 1, 1)).events()).isNotEmpty();
    }

    @Test
    void aDayWithMoreThanTheLimitListsTheFirstAndSaysHowManyMore() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < ICalendarDays.MAX_EVENTS + 5; i++) {
            lines.addAll(List.of(event("e" + i, "Slot " + i,
                    String.format("DTSTART:20250324T%02d%02d00Z", i / 60, i % 60), "DURATION:PT1M")));
        }

        CalendarDay day = ICalendarDays.day(ics(lines.toArray(String[]::new)), ZoneId.of("UTC"), MONDAY);

        assertThat(day.events()).hasSize(ICalendarDays.MAX_EVENTS);
        assertThat(day.events().get(0).title()).isEqualTo("Slot 0");
        assertThat(day.leftOut()).singleElement().asString().startsWith("5 more event(s)");
    }

    @Test
    void feedTextIsOneCleanBoundedLine() {
        String feed = ics(event("x", "Line one\\nline two " + "x".repeat(400), "DTSTART:20250324T100000Z",
                "LOCATION:  "));

        CalendarEvent event = ICalendarDays.day(feed, ZoneId.of("UTC"), MONDAY).events().get(0);

        assertThat(event.title()).startsWith("Line one line two").hasSize(ICalendarDays.MAX_TEXT).endsWith("…");
        assertThat(event.location()).as("a blank location is no location").isNull();
    }

    @Test
    void aPageThatIsNotICalendarIsRefusedSayingWhatItIs() {
        assertThatExceptionOfType(FeedProblem.class)
                .isThrownBy(() -> ICalendarDays.parse("<!DOCTYPE html><html><body>Sign in</body></html>"))
                .satisfies(problem -> assertThat(problem.slug()).isEqualTo(FeedProblem.UNPARSEABLE))
                .withMessageContaining("does not begin with BEGIN:VCALENDAR");
        assertThatExceptionOfType(FeedProblem.class).isThrownBy(() -> ICalendarDays.parse(""))
                .withMessageContaining("BEGIN:VCALENDAR");
    }

    @Test
    void aBrokenFeedIsRefusedWithItsLineAndReason() {
        String broken = ics(event("x", "Bad rule", "DTSTART:20250324T100000Z", "RRULE:FREQ=MONTHLY;BYMONTH=13"));

        assertThatExceptionOfType(FeedProblem.class).isThrownBy(() -> ICalendarDays.parse(broken))
                .satisfies(problem -> assertThat(problem.slug()).isEqualTo(FeedProblem.UNPARSEABLE))
                .withMessageStartingWith("the feed is not valid iCalendar: line 9: ")
                .withMessageContaining("1 - 12");
        assertThatExceptionOfType(FeedProblem.class)
                .isThrownBy(() -> ICalendarDays.parse("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\n"))
                .withMessageStartingWith("the feed is not valid iCalendar");
    }
}
