package dev.ringzero.ecosystem.calendar;

import java.sql.Timestamp;
import java.time.ZoneId;
import java.util.Optional;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** {@code rz_calendar_feed}: one feed per owner. */
@Component
class CalendarFeedStore {

    private final JdbcClient jdbc;

    CalendarFeedStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Optional<CalendarFeed> find(String ownerId) {
        return jdbc.sql("select url, file_name, time_zone, updated_at from rz_calendar_feed where owner_id = ?")
                .param(ownerId)
                .query((rs, n) -> new CalendarFeed(rs.getString("url"), rs.getString("file_name"),
                        ZoneId.of(rs.getString("time_zone")), rs.getTimestamp("updated_at").toInstant()))
                .optional();
    }

    /** Replaces the owner's feed; two owners' requests at once both end with one row each. */
    void save(String ownerId, CalendarFeed feed) {
        if (update(ownerId, feed) == 1) {
            return;
        }
        try {
            jdbc.sql("insert into rz_calendar_feed(owner_id, url, file_name, time_zone, updated_at) values (?, ?, ?, ?, ?)")
                    .params(ownerId, feed.url(), feed.file(), feed.timeZone().getId(), Timestamp.from(feed.updatedAt()))
                    .update();
        } catch (DuplicateKeyException e) {
            // the same owner stored a feed meanwhile: the later request wins, as an update would
            update(ownerId, feed);
        }
    }

    boolean delete(String ownerId) {
        return jdbc.sql("delete from rz_calendar_feed where owner_id = ?").param(ownerId).update() == 1;
    }

    private int update(String ownerId, CalendarFeed feed) {
        return jdbc.sql("update rz_calendar_feed set url = ?, file_name = ?, time_zone = ?, updated_at = ? where owner_id = ?")
                .params(feed.url(), feed.file(), feed.timeZone().getId(), Timestamp.from(feed.updatedAt()), ownerId)
                .update();
    }
}
