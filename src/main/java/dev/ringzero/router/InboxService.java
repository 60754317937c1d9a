package dev.ringzero.router;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

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

    private final JdbcClient jdbc;

    InboxService(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public String post(String ownerId, String kind, String text, String data) {
        String id = UUID.randomUUID().toString();
        jdbc.sql("insert into rz_inbox_message(id, owner_id, kind, text, data, created_at) values (?, ?, ?, ?, ?, ?)")
                .params(id, ownerId, kind, text, data, Timestamp.from(Instant.now()))
                .update();
        return id;
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
