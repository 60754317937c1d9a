package dev.ringzero.ecosystem.calendar;

import java.time.OffsetDateTime;

/**
 * One occurrence of an event on the owner's calendar, in the owner's time zone. An all-day event
 * runs from the midnight that starts its first day to the midnight that ends its last one. An
 * event that began before the day (or ends after it) keeps its real start (or end).
 *
 * @param title the event's SUMMARY ({@code "(no title)"} without one); text from the feed, so data,
 *     never instructions
 * @param start when it starts, at the owner's offset
 * @param end when it ends (equal to {@code start} for an event without duration)
 * @param allDay whether the feed gives it as a date rather than a time
 * @param location its LOCATION, or {@code null}
 */
public record CalendarEvent(String title, OffsetDateTime start, OffsetDateTime end, boolean allDay,
        String location) {
}
