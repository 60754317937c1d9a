package dev.ringzero.ecosystem.calendar;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.ringzero.Refusal;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The owner's calendar, as the {@code llm} tools {@code calendar.today} and
 * {@code calendar.next_meeting} read it: the iCalendar feed the owner configured (an http(s)
 * address, or a file in the operator's {@code ringzero.calendar.file-dir}), read and expanded into
 * the events of the owner's day ({@link CalendarDay}).
 *
 * <p>Every failure is a {@link Refusal} whose slug is stable and whose message says what is wrong in
 * words a person (or a model) understands: {@code calendar-not-configured} (not found),
 * {@code calendar-unreachable}, {@code calendar-too-large}, {@code calendar-unparseable},
 * {@code invalid-calendar-file} (conflict: the stored feed cannot be read now). No address's path or
 * query appears in a message, since it may be the calendar's secret.
 *
 * <p>A day read is kept for {@code ringzero.calendar.cache-ttl} (60 s; {@code PT0S} turns it off) per
 * owner, so a session that asks twice fetches once; storing or removing the feed, a new day, or a
 * change of the stored feed on another node ends it at once. Failures are never kept.
 */
@Component
public class CalendarFeeds {

    private final CalendarFeedStore store;
    private final FeedFetcher fetcher;
    private final Clock clock;
    private final Duration cacheTtl;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    CalendarFeeds(CalendarFeedStore store, FeedFetcher fetcher, Clock clock,
            @Value("${ringzero.calendar.cache-ttl:PT60S}") Duration cacheTtl) {
        this.store = store;
        this.fetcher = fetcher;
        this.clock = clock;
        this.cacheTtl = cacheTtl;
    }

    /** The owner's events of today in their calendar time zone. */
    public CalendarDay today(String ownerId) {
        CalendarFeed feed = feed(ownerId).orElseThrow(CalendarFeeds::notConfigured);
        Instant now = clock.instant();
        LocalDate date = LocalDate.ofInstant(now, feed.timeZone());
        Cached cached = cache.get(ownerId);
        if (cached != null && cached.feed().equals(feed) && cached.day().date().equals(date)
                && now.isBefore(cached.until())) {
            return cached.day();
        }
        CalendarDay day;
        try {
            day = ICalendarDays.day(fetcher.read(feed.source()), feed.timeZone(), date);
        } catch (FeedProblem problem) {
            cache.remove(ownerId);
            throw new Refusal(Refusal.Kind.CONFLICT, problem.slug(), "the calendar feed cannot be read now: "
                    + problem.getMessage());
        }
        if (!cacheTtl.isZero() && !cacheTtl.isNegative()) {
            cache.put(ownerId, new Cached(feed, day, now.plus(cacheTtl)));
        }
        return day;
    }

    /**
     * The first of today's events that has not ended yet (one under way counts), all-day events
     * aside: they are days off and birthdays, not meetings. Empty when none is left today.
     */
    public Optional<CalendarEvent> nextMeeting(String ownerId) {
        CalendarDay day = today(ownerId);
        Instant now = clock.instant();
        return day.events().stream()
                .filter(event -> !event.allDay())
                .filter(event -> event.end().toInstant().isAfter(now)
                        || event.end().isEqual(event.start()) && !event.start().toInstant().isBefore(now))
                .findFirst();
    }

    Optional<CalendarFeed> feed(String ownerId) {
        return store.find(ownerId);
    }

    /**
     * Stores the owner's feed after reading it once: a feed that cannot be fetched or parsed now is
     * refused (400) with the reason, rather than stored to fail later.
     */
    CalendarFeed configure(String ownerId, String url, String file, String timeZone) {
        boolean hasUrl = url != null && !url.isBlank();
        boolean hasFile = file != null && !file.isBlank();
        if (hasUrl == hasFile) {
            throw Refusal.invalid("invalid-calendar-feed", "give exactly one of 'url' (an http:// or https:// "
                    + "address of an iCalendar feed) and 'file' (a name in the platform's calendar directory)");
        }
        ZoneId zone = zone(timeZone);
        FeedSource source = hasUrl ? FeedSource.url(url) : fetcher.file(file);
        try {
            ICalendarDays.parse(fetcher.read(source));
        } catch (FeedProblem problem) {
            throw Refusal.invalid(problem.slug(), "the calendar feed cannot be used: " + problem.getMessage());
        }
        CalendarFeed feed = new CalendarFeed(source instanceof FeedSource.Url address ? address.uri().toString() : null,
                source instanceof FeedSource.File name ? name.name() : null, zone, clock.instant());
        store.save(ownerId, feed);
        cache.remove(ownerId);
        return store.find(ownerId).orElse(feed);
    }

    boolean remove(String ownerId) {
        cache.remove(ownerId);
        return store.delete(ownerId);
    }

    static Refusal notConfigured() {
        return new Refusal(Refusal.Kind.NOT_FOUND, "calendar-not-configured", "no calendar feed is configured "
                + "for this account (PUT /api/v1/calendar sets one)");
    }

    /** An IANA region id or UTC, as the JDK knows them; no offsets, no ids ical4j made up. */
    static ZoneId zone(String id) {
        String text = id == null ? "UTC" : id.strip();
        if (text.startsWith("ical4j") || !ZoneId.getAvailableZoneIds().contains(text)) {
            throw Refusal.invalid("unknown-time-zone", "'timeZone' must be an IANA time zone such as "
                    + "Europe/Berlin or UTC; '" + ICalendarDays.text(text, 64) + "' is not one");
        }
        return ZoneId.of(text);
    }

    private record Cached(CalendarFeed feed, CalendarDay day, Instant until) {
    }
}
