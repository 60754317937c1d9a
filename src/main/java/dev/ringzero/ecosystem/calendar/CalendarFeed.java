package dev.ringzero.ecosystem.calendar;

import java.time.Instant;
import java.time.ZoneId;

/**
 * An owner's configured feed: exactly one of {@code url} and {@code file}, and the time zone that
 * decides where the owner's day begins.
 */
record CalendarFeed(String url, String file, ZoneId timeZone, Instant updatedAt) {

    FeedSource source() {
        return url != null ? new FeedSource.Url(java.net.URI.create(url)) : new FeedSource.File(file);
    }

}
