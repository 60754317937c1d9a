package dev.ringzero.router;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The owner's inbox: the main-chat fallback for events that matched no agent, and notices
 * that ring 0 addresses to the owner (for example an executed {@code inbox.post} gate).
 */
@Service
public class InboxService {

    public record Message(String id, String kind, String text, String data, Instant createdAt) {
    }

    /**
     * Published with every new message, in the poster's transaction: listeners that tell a client
     * (the MCP inbox resource) wait for the commit, so nobody is told of a message that is not there.
     */
    public record Posted(String ownerId, String messageId, String kind) {
    }

    /** The column's width (changelog 002). */
    static final int MAX_TEXT = 4000;
    private static final String TRUNCATED = " … [truncated; the whole event is in data]";

    private final JdbcClient jdbc;
    private final ApplicationEventPublisher events;

    InboxService(JdbcClient jdbc, ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.events = events;
    }

    /**
     * Posts a message; a text longer than the column holds is cut and marked (the full data stays
     * in {@code data}), so an event with a large payload reaches its owner instead of failing its
     * insert for ever.
     */
    public String post(String ownerId, String kind, String text, String data) {
        String id = UUID.randomUUID().toString();
        jdbc.sql("insert into rz_inbox_message(id, owner_id, kind, text, data, created_at) values (?, ?, ?, ?, ?, ?)")
                .params(id, ownerId, kind, bounded(text), data, Timestamp.from(Instant.now()))
                .update();
        events.publishEvent(new Posted(ownerId, id, kind));
        return id;
    }

    /** The text as it fits {@code rz_inbox_message.text}: at most {@value #MAX_TEXT} characters. */
    static String bounded(String text) {
        if (text.length() <= MAX_TEXT) {
            return text;
        }
        int cut = MAX_TEXT - TRUNCATED.length();
        if (Character.isHighSurrogate(text.charAt(cut - 1))) {
            cut--; // never split a character in two
        }
        return text.substring(0, cut) + TRUNCATED;
    }

    public List<Message> list(String ownerId, int limit) {
        return jdbc.sql("select id, kind, text, data, created_at from rz_inbox_message where owner_id = ? "
                        + "order by created_at desc, id limit ?")
                .params(ownerId, limit)
                .query((rs, n) -> new Message(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getTimestamp(5).toInstant()))
                .list();
    }
}
