package dev.ringzero.ecosystem.calendar;

import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.Temporal;
import java.time.temporal.TemporalAmount;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import net.fortuna.ical4j.data.CalendarBuilder;
import net.fortuna.ical4j.data.CalendarParserImpl;
import net.fortuna.ical4j.data.ParserException;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.Period;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.Recur;
import net.fortuna.ical4j.model.component.VEvent;
import net.fortuna.ical4j.model.property.DtEnd;
import net.fortuna.ical4j.model.property.DtStart;
import net.fortuna.ical4j.model.property.ExDate;
import net.fortuna.ical4j.model.property.RRule;
import net.fortuna.ical4j.model.property.RecurrenceId;

/**
 * An iCalendar feed's events of one day in the owner's time zone, as plain Java: ical4j parses the
 * feed and expands each event's RRULE and RDATE; this class decides what belongs to the day.
 *
 * <ul>
 *   <li>Times with a TZID or in UTC are instants, shown at the owner's offset; floating times
 *       (neither) and all-day dates are the owner's local time and dates.</li>
 *   <li>An event belongs to the day when it overlaps it (one that began yesterday and runs past
 *       midnight does); one without duration when it starts within it.</li>
 *   <li>EXDATE removes the occurrence that starts at the same instant (ical4j alone matches only an
 *       EXDATE written exactly like the DTSTART, not one in UTC for a TZID start); an event with a
 *       RECURRENCE-ID replaces the occurrence it names; STATUS:CANCELLED drops an event.</li>
 *   <li>Expanding a recurrence walks from its DTSTART to the day, one step per FREQ unit: a rule
 *       that would take more than {@value #MAX_STEPS_PER_EVENT} steps (every minute for months),
 *       or a feed whose rules together take more than {@value #MAX_STEPS}, is left out and said
 *       so, rather than holding a thread for seconds. A rule whose UNTIL passed long before the
 *       day costs nothing: it is not expanded at all.</li>
 * </ul>
 */
final class ICalendarDays {

    static final int MAX_EVENTS = 100;
    static final int MAX_TEXT = 300;
    static final long MAX_STEPS_PER_EVENT = 100_000;
    static final long MAX_STEPS = 1_000_000;
    private static final long ENDED = -1;

    private static final Comparator<CalendarEvent> ORDER = Comparator
            .comparing((CalendarEvent event) -> event.start().toInstant())
            .thenComparing(event -> !event.allDay())
            .thenComparing(event -> event.end().toInstant())
            .thenComparing(CalendarEvent::title);

    private ICalendarDays() {
    }

    /** Parses a feed; {@link FeedProblem} ({@code calendar-unparseable}) names what is wrong with it. */
    static Calendar parse(String text) {
        String body = (text.startsWith("\uFEFF") ? text.substring(1) : text).stripLeading();
        if (!body.regionMatches(true, 0, "BEGIN:VCALENDAR", 0, "BEGIN:VCALENDAR".length())) {
            throw new FeedProblem(FeedProblem.UNPARSEABLE, "this is not an iCalendar feed: it does not begin with "
                    + "BEGIN:VCALENDAR (is it the calendar's .ics address rather than its web page?)");
        }
        try {
            Calendar calendar = new CalendarBuilder(new CalendarParserImpl(), new FeedZones())
                    .build(new StringReader(body));
            if (calendar == null) {
                throw new FeedProblem(FeedProblem.UNPARSEABLE, "the feed holds no VCALENDAR");
            }
            return calendar;
        } catch (ParserException e) {
            String reason = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage()
                    : String.valueOf(e.getMessage()).replaceFirst("^Error at line \\d+:", "");
            throw new FeedProblem(FeedProblem.UNPARSEABLE, "the feed is not valid iCalendar: line " + e.getLineNo()
                    + ": " + text(reason, 200));
        } catch (IOException | RuntimeException e) {
            if (e instanceof FeedProblem problem) {
                throw problem;
            }
            throw new FeedProblem(FeedProblem.UNPARSEABLE, "the feed is not valid iCalendar: "
                    + text(String.valueOf(e.getMessage()), 200));
        }
    }

    static CalendarDay day(String text, ZoneId zone, LocalDate date) {
        return day(parse(text), zone, date);
    }

    static CalendarDay day(Calendar calendar, ZoneId zone, LocalDate date) {
        Day day = new Day(zone, date);
        List<VEvent> events = calendar.getComponents(Component.VEVENT);
        Map<String, Set<Object>> replaced = new HashMap<>();
        for (VEvent event : events) {
            Optional<RecurrenceId<Temporal>> recurrenceId = event.getProperty(Property.RECURRENCE_ID);
            if (recurrenceId.isPresent() && !uid(event).isEmpty()) {
                try {
                    replaced.computeIfAbsent(uid(event), uid -> new HashSet<>())
                            .add(key(recurrenceId.get().getDate(), zone));
                } catch (RuntimeException e) {
                    // an unreadable RECURRENCE-ID replaces nothing; the changed occurrence still shows
                }
            }
        }
        List<String> leftOut = new ArrayList<>();
        List<CalendarEvent> found = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        long budget = MAX_STEPS;
        int overBudget = 0;
        for (VEvent event : events) {
            if (event.getProperty(Property.STATUS).map(Property::getValue).filter("CANCELLED"::equalsIgnoreCase)
                    .isPresent()) {
                continue;
            }
            boolean isOverride = event.getProperty(Property.RECURRENCE_ID).isPresent();
            Set<Object> skip = isOverride ? Set.of() : replaced.getOrDefault(uid(event), Set.of());
            try {
                Optional<DtStart<Temporal>> start = event.getProperty(Property.DTSTART);
                if (start.isEmpty()) {
                    leftOut.add("an event without a start (DTSTART), '" + title(event) + "'");
                    continue;
                }
                Temporal seed = start.get().getDate();
                long steps = steps(event, seed, day);
                if (steps == ENDED) {
                    continue;
                }
                if (steps > MAX_STEPS_PER_EVENT) {
                    leftOut.add("'" + title(event) + "' repeats too often to expand (about " + steps
                            + " steps from its first occurrence to this day; at most " + MAX_STEPS_PER_EVENT + ")");
                    continue;
                }
                if (steps > budget) {
                    overBudget++;
                    continue;
                }
                budget -= steps;
                for (CalendarEvent occurrence : occurrences(event, seed, day, skip)) {
                    if (seen.add(uid(event) + '\n' + occurrence.title() + '\n' + occurrence.start().toInstant() + '\n'
                            + occurrence.end().toInstant())) {
                        found.add(occurrence);
                    }
                }
            } catch (RuntimeException e) {
                leftOut.add("'" + title(event) + "' could not be read: " + text(String.valueOf(e.getMessage()), 200));
            }
        }
        if (overBudget > 0) {
            leftOut.add(overBudget + " recurring event(s): the feed's recurrences together take more than "
                    + MAX_STEPS + " steps to expand");
        }
        found.sort(ORDER);
        if (found.size() > MAX_EVENTS) {
            leftOut.add((found.size() - MAX_EVENTS) + " more event(s) of this day: at most " + MAX_EVENTS
                    + " are listed");
            found = found.subList(0, MAX_EVENTS);
        }
        return new CalendarDay(zone, date, found, leftOut);
    }

    private static List<CalendarEvent> occurrences(VEvent event, Temporal seed, Day day, Set<Object> replaced) {
        Set<Object> excluded = new HashSet<>(replaced);
        for (ExDate<Temporal> exDate : event.<ExDate<Temporal>>getProperties(Property.EXDATE)) {
            for (Temporal date : exDate.getDates()) {
                excluded.add(key(date, day.zone()));
            }
        }
        String title = title(event);
        String location = event.getProperty(Property.LOCATION).map(Property::getValue)
                .map(value -> text(value, MAX_TEXT)).filter(value -> !value.isEmpty()).orElse(null);
        List<CalendarEvent> occurrences = new ArrayList<>();
        for (Period<Temporal> period : event.<Temporal>calculateRecurrenceSet(day.query(seed))) {
            if (excluded.contains(key(period.getStart(), day.zone()))) {
                continue;
            }
            CalendarEvent occurrence = day.occurrence(title, location, period.getStart(), period.getEnd());
            if (occurrence != null) {
                occurrences.add(occurrence);
            }
        }
        return occurrences;
    }

    /**
     * How many FREQ steps ical4j takes to reach the day, for all the event's rules, or
     * {@link #ENDED} when every rule ended long before the day and nothing else (RDATE) could put
     * the event on it. Without COUNT, ical4j first walks from DTSTART to the window one step at a
     * time whether or not UNTIL passed long ago; with COUNT it walks at most COUNT steps.
     */
    private static long steps(VEvent event, Temporal seed, Day day) {
        List<RRule<Temporal>> rules = event.getProperties(Property.RRULE);
        if (rules.isEmpty()) {
            return 0;
        }
        LocalDateTime from = local(seed, day.zone());
        LocalDateTime to = day.date().plusDays(2).atStartOfDay();
        // two days of slack: a rule's UNTIL and the owner's day may be up to 26 hours apart in offset
        LocalDateTime longAgo = day.date().minusDays(2).atStartOfDay().minus(length(event, seed));
        long total = 0;
        boolean allEnded = event.getProperties(Property.RDATE).isEmpty();
        for (RRule<Temporal> rule : rules) {
            Recur<Temporal> recur = rule.getRecur();
            ChronoUnit unit = switch (recur.getFrequency()) {
                case SECONDLY -> ChronoUnit.SECONDS;
                case MINUTELY -> ChronoUnit.MINUTES;
                case HOURLY -> ChronoUnit.HOURS;
                case DAILY -> ChronoUnit.DAYS;
                case WEEKLY -> ChronoUnit.WEEKS;
                case MONTHLY -> ChronoUnit.MONTHS;
                case YEARLY -> ChronoUnit.YEARS;
            };
            boolean ended = recur.getUntil() != null && local(recur.getUntil(), day.zone()).isBefore(longAgo);
            allEnded &= ended;
            long steps = from.isBefore(to) ? unit.between(from, to) / Math.max(1, recur.getInterval()) + 1 : 1;
            total += recur.getCount() > 0 ? Math.min(steps, recur.getCount()) : steps;
        }
        return allEnded ? ENDED : total;
    }

    /** The event's length as DTEND or DURATION gives it (a day for a date without either). */
    private static Duration length(VEvent event, Temporal seed) {
        Optional<DtEnd<Temporal>> end = event.getProperty(Property.DTEND);
        if (end.isPresent()) {
            return Duration.between(local(seed, ZoneId.of("UTC")), local(end.get().getDate(), ZoneId.of("UTC")))
                    .abs();
        }
        Optional<net.fortuna.ical4j.model.property.Duration> duration = event.getProperty(Property.DURATION);
        if (duration.isPresent()) {
            TemporalAmount amount = duration.get().getDuration();
            if (amount instanceof Duration exact) {
                return exact.abs();
            }
            if (amount instanceof java.time.Period period) {
                return Duration.ofDays(Math.abs(period.toTotalMonths() * 31 + period.getDays()));
            }
        }
        return seed instanceof LocalDate ? Duration.ofDays(1) : Duration.ZERO;
    }

    /** What EXDATE and RECURRENCE-ID are compared by: the date of an all-day event, otherwise the instant. */
    private static Object key(Temporal temporal, ZoneId zone) {
        if (temporal instanceof LocalDate date) {
            return date;
        }
        if (temporal instanceof LocalDateTime local) {
            return local.atZone(zone).toInstant();
        }
        return Instant.from(temporal);
    }

    private static LocalDateTime local(Temporal temporal, ZoneId zone) {
        if (temporal instanceof LocalDate date) {
            return date.atStartOfDay();
        }
        if (temporal instanceof LocalDateTime local) {
            return local;
        }
        return LocalDateTime.ofInstant(Instant.from(temporal), zone);
    }

    private static String uid(VEvent event) {
        return event.getProperty(Property.UID).map(Property::getValue).orElse("");
    }

    private static String title(VEvent event) {
        String title = event.getProperty(Property.SUMMARY).map(Property::getValue).map(value -> text(value, MAX_TEXT))
                .orElse("");
        return title.isEmpty() ? "(no title)" : title;
    }

    /** Feed text as one clean line: control characters become spaces, at most {@code max} characters. */
    static String text(String value, int max) {
        String line = value.replaceAll("[\\p{Cc}\\p{Zl}\\p{Zp}]+", " ").strip();
        return line.length() <= max ? line : line.substring(0, max - 1) + "…";
    }

    /** The day in the owner's zone, and how each kind of iCalendar time is placed in it. */
    private record Day(ZoneId zone, LocalDate date) {

        Instant start() {
            return date.atStartOfDay(zone).toInstant();
        }

        Instant end() {
            return date.plusDays(1).atStartOfDay(zone).toInstant();
        }

        /**
         * A window around the day in the seed's own kind of time (ical4j compares like with like),
         * a day wider on each side; {@link #occurrence} decides exactly.
         */
        Period<Temporal> query(Temporal seed) {
            if (seed instanceof LocalDate) {
                return new Period<>(date.minusDays(1), date.plusDays(2));
            }
            if (seed instanceof LocalDateTime) {
                return new Period<>(date.minusDays(1).atStartOfDay(), date.plusDays(2).atStartOfDay());
            }
            Instant from = start().minus(1, ChronoUnit.DAYS);
            Instant to = end().plus(1, ChronoUnit.DAYS);
            if (seed instanceof ZonedDateTime zoned) {
                return new Period<>(from.atZone(zoned.getZone()), to.atZone(zoned.getZone()));
            }
            if (seed instanceof OffsetDateTime offset) {
                return new Period<>(from.atOffset(offset.getOffset()), to.atOffset(offset.getOffset()));
            }
            if (seed instanceof Instant) {
                return new Period<>(from, to);
            }
            throw new IllegalArgumentException("its start has an unsupported kind of time (" + seed + ")");
        }

        /** The occurrence as the owner sees it, or null when it does not touch the day. */
        CalendarEvent occurrence(String title, String location, Temporal from, Temporal to) {
            if (from instanceof LocalDate first) {
                LocalDate end = to instanceof LocalDate last && last.isAfter(first) ? last : first.plusDays(1);
                if (date.isBefore(first) || !date.isBefore(end)) {
                    return null;
                }
                return new CalendarEvent(title, first.atStartOfDay(zone).toOffsetDateTime(),
                        end.atStartOfDay(zone).toOffsetDateTime(), true, location);
            }
            Instant start = instant(from);
            Instant end = to == null ? start : instant(to);
            end = end.isBefore(start) ? start : end;
            boolean touches = start.isBefore(end()) && (end.isAfter(start()) || end.equals(start) && !start.isBefore(start()));
            if (!touches) {
                return null;
            }
            return new CalendarEvent(title, start.atZone(zone).toOffsetDateTime(), end.atZone(zone).toOffsetDateTime(),
                    false, location);
        }

        private Instant instant(Temporal temporal) {
            return temporal instanceof LocalDateTime local ? local.atZone(zone).toInstant() : Instant.from(temporal);
        }
    }
}
