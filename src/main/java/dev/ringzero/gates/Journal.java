package dev.ringzero.gates;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The per-agent journal ({@code rz_journal}): one append-only timeline that every actor writes
 * to — the run (notes), the kernel (auto-executed, refused), the desk (filed, approved, denied)
 * and the executor (executing, executed, failed). It is the agent's view of its own history and
 * gate state; enforcement never reads it (a forged line moves nothing, the gate table decides).
 */
@Component
public class Journal {

    /** Who wrote an entry. */
    public enum Actor {
        RUN, KERNEL, DESK, EXECUTOR, SYSTEM;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One line of the timeline; {@code data} is JSON or null. */
    public record Entry(long id, Instant at, String actor, String kind, String gateId, String runId, String text,
            String data) {
    }

    private final JdbcClient jdbc;
    private final Clock clock;

    Journal(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    public void append(String agentId, String ownerId, Actor actor, String kind, String gateId, String runId,
            String text, String data) {
        row(agentId, ownerId, actor, kind, gateId, runId, text, data).ifPresent(row -> row.append(jdbc));
    }

    /**
     * One line as a row to append, alone or with an audit entry (see {@link LogRows}); none for
     * no agent: the owner's own direct gates belong to no agent's timeline.
     */
    java.util.Optional<LogRows.Row> row(String agentId, String ownerId, Actor actor, String kind, String gateId,
            String runId, String text, String data) {
        if (agentId == null) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new LogRows.Row("insert into rz_journal(agent_id, owner_id, at, actor, kind, "
                + "gate_id, run_id, text, data) values (?, ?, ?, ?, ?, ?, ?, ?, ?)", agentId, ownerId,
                Timestamp.from(clock.instant()), actor.wire(), kind, gateId, runId,
                text.length() > 2000 ? text.substring(0, 2000) : text, data));
    }

    /** A run's own note on its agent's timeline. */
    public void note(String agentId, String ownerId, String runId, String text) {
        append(agentId, ownerId, Actor.RUN, "run.note", null, runId, text, null);
    }

    /** The agent's timeline, oldest first, after entry {@code afterId} (0: from the start). */
    public List<Entry> of(String agentId, long afterId, int limit) {
        return jdbc.sql("select id, at, actor, kind, gate_id, run_id, text, data from rz_journal "
                        + "where agent_id = ? and id > ? order by id limit ?")
                .params(agentId, afterId, limit)
                .query((rs, n) -> new Entry(rs.getLong(1), rs.getTimestamp(2).toInstant(), rs.getString(3),
                        rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8)))
                .list();
    }

    /** The agent's newest entries, oldest of them first (what an llm run's {@code journal.read} returns). */
    public List<Entry> recent(String agentId, int limit) {
        List<Entry> newest = new java.util.ArrayList<>(jdbc.sql("select id, at, actor, kind, gate_id, run_id, text, "
                        + "data from rz_journal where agent_id = ? order by id desc limit ?")
                .params(agentId, limit)
                .query((rs, n) -> new Entry(rs.getLong(1), rs.getTimestamp(2).toInstant(), rs.getString(3),
                        rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8)))
                .list());
        java.util.Collections.reverse(newest);
        return newest;
    }
}
