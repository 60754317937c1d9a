package dev.ringzero.ecosystem.calendar;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

/**
 * The owner's events of one day ({@code calendar.today}): every event that overlaps the day in the
 * owner's time zone, sorted by start (all-day events first among those of equal start), recurring
 * events expanded into their occurrences.
 *
 * @param timeZone the owner's calendar time zone, which decides where the day begins and ends
 * @param date the day
 * @param events its events, at most {@value ICalendarDays#MAX_EVENTS}
 * @param leftOut one sentence for each thing of the feed that was not included and why (an event
 *     in an unknown time zone, a recurrence too frequent to expand, events beyond the limit); empty
 *     when nothing was left out
 */
public record CalendarDay(ZoneId timeZone, LocalDate date, List<CalendarEvent> events, List<String> leftOut) {

    public CalendarDay {
        events = List.copyOf(events);
        leftOut = List.copyOf(leftOut);
    }
}
