package dev.ringzero.gates;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The owners' trust ladder entries, in each owner's order (position, then age). */
// a plain component: JdbcClient already throws DataAccessException, and @Repository's translating
// proxy would cost every read of the run path a reflective call
@Component
class TrustRuleStore {

    /** One stored rule; {@code predicate} is a JSON object of field → glob. */
    record Row(String id, String ownerId, String agentId, String intent, String predicate, String level,
            int earnAfter, String earnWindow, int position, Instant createdAt) {
    }

    private static final String COLUMNS = "id, owner_id, agent_id, intent, predicate, level, earn_after, earn_window, "
            + "position, created_at";

    private final JdbcClient jdbc;

    TrustRuleStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    List<Row> of(String ownerId) {
        return jdbc.sql("select " + COLUMNS + " from rz_trust_rule where owner_id = ? order by position, created_at, id")
                .param(ownerId).query(TrustRuleStore::map).list();
    }

    Optional<Row> findOwned(String ownerId, String id) {
        return jdbc.sql("select " + COLUMNS + " from rz_trust_rule where id = ? and owner_id = ?")
                .params(id, ownerId).query(TrustRuleStore::map).optional();
    }

    /**
     * Inserts at {@code position} (0 = first; null or past the end = last), moving the owner's
     * later rules down one place. Call in a transaction.
     */
    void insert(Row row, Integer position) {
        jdbc.sql("select id from rz_trust_rule where owner_id = ? for update").param(row.ownerId())
                .query(String.class).list();
        int count = jdbc.sql("select count(*) from rz_trust_rule where owner_id = ?").param(row.ownerId())
                .query(Integer.class).single();
        int at = position == null || position >= count ? count : Math.max(0, position);
        List<String> order = of(row.ownerId()).stream().map(Row::id).toList();
        for (int i = at; i < order.size(); i++) {
            jdbc.sql("update rz_trust_rule set position = ? where id = ?").params(i + 1, order.get(i)).update();
        }
        for (int i = 0; i < at; i++) {
            jdbc.sql("update rz_trust_rule set position = ? where id = ?").params(i, order.get(i)).update();
        }
        jdbc.sql("insert into rz_trust_rule(" + COLUMNS + ") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                .params(row.id(), row.ownerId(), row.agentId(), row.intent(), row.predicate(), row.level(),
                        row.earnAfter(), row.earnWindow(), at, Timestamp.from(row.createdAt()))
                .update();
    }

    boolean delete(String ownerId, String id) {
        return jdbc.sql("delete from rz_trust_rule where id = ? and owner_id = ?").params(id, ownerId).update() == 1;
    }

    private static Row map(ResultSet rs, int n) throws SQLException {
        return new Row(rs.getString("id"), rs.getString("owner_id"), rs.getString("agent_id"), rs.getString("intent"),
                rs.getString("predicate"), rs.getString("level"), rs.getInt("earn_after"), rs.getString("earn_window"),
                rs.getInt("position"), rs.getTimestamp("created_at").toInstant());
    }
}
