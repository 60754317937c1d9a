/**
 * Ring 3, reading: the owner's calendar for the {@code llm} tools {@code calendar.today} and
 * {@code calendar.next_meeting}. Each account may configure one iCalendar feed, an http(s) address
 * or a file in the operator's calendar directory ({@code ringzero.calendar.file-dir}: a remote
 * owner must not name the server's files), with the time zone its day is read in.
 * {@link dev.ringzero.ecosystem.calendar.CalendarFeeds} reads it, bounded in time and size, and
 * ical4j parses it and expands its recurrences; nothing is sent anywhere, so no gate is involved.
 *
 * <p>May use: {@code accounts} (the {@link dev.ringzero.accounts.Caller} of its REST routes), the
 * root ({@link dev.ringzero.Refusal}). Used by the {@code llm} runtime in {@code agents} and by its
 * own controller.
 */
package dev.ringzero.ecosystem.calendar;
