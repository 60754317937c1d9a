package dev.ringzero.gates;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The append-only audit log ({@code rz_audit}): every disposition of an action, with the human or
 * the trust rule that made it. There is deliberately no update or delete here; the database
 * refuses both as well (a trigger, see the 105 changeSets).
 */
@Component
public class Audit {

    /** What happened to an action. */
    public enum Disposition {
        /** the kernel said no (deny or over budget): nothing was filed or run */
        REFUSED,
        /** the trust ladder allowed it and the trusted side ran it without asking */
        AUTO_EXECUTED,
        /** filed for a human */
        GATED,
        APPROVED,
        DENIED,
        EXECUTED,
        FAILED,
        EXPIRED,
        /** the agent was disabled, revised or deleted, or the gadget unpaired, while it waited */
        FENCED;

        /** e.g. {@code auto-executed}. */
        public String wire() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** One audit row. {@code actor} is an account id, {@code trust-rule:<id>}, {@code default} or {@code system:*}. */
    public record Entry(long id, Instant at, String ownerId, String agentId, String runId, String gateId,
            String intent, String disposition, String actor, String ruleId, String detail) {
    }

    private final JdbcClient jdbc;
    private final Clock clock;

    Audit(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Appends one disposition about a gate (or an auto-executed action recorded as one). */
    public void record(Gate gate, Disposition disposition, String actor, String detail) {
        append(gate.ownerId(), gate.agentId(), gate.runId(), gate.id(), gate.intent(), disposition, actor,
                gate.ruleId(), detail);
    }

    /** Appends one disposition; for callers outside the desk (a refused run action, say). */
    public void append(String ownerId, String agentId, String runId, String gateId, String intent,
            Disposition disposition, String actor, String ruleId, String detail) {
        row(ownerId, agentId, runId, gateId, intent, disposition, actor, ruleId, detail).append(jdbc);
    }

    /** One disposition as a row to append, alone or with a journal line (see {@link LogRows}). */
    LogRows.Row row(String ownerId, String agentId, String runId, String gateId, String intent,
            Disposition disposition, String actor, String ruleId, String detail) {
        return new LogRows.Row("insert into rz_audit(at, owner_id, agent_id, run_id, gate_id, intent, disposition, "
                + "actor, rule_id, detail) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", Timestamp.from(clock.instant()),
                ownerId, agentId, runId, gateId, intent, disposition.wire(), actor == null ? "system" : actor, ruleId,
                detail);
    }

    /** A gate's whole story, in order. */
    public List<Entry> ofGate(String gateId) {
        return jdbc.sql("select * from rz_audit where gate_id = ? order by id").param(gateId).query(Audit::map)
                .list();
    }

    /** An owner's most recent entries, newest first. */
    public List<Entry> ofOwner(String ownerId, int limit) {
        return jdbc.sql("select * from rz_audit where owner_id = ? order by id desc limit ?").params(ownerId, limit)
                .query(Audit::map).list();
    }

    /**
     * What a reader of the trail asks for: every field is optional but {@code limit}. {@code ownerId}
     * null reads every owner's entries (analysts); {@code before} is the id of the last entry of the
     * previous page (entries come newest first); {@code from} is inclusive, {@code to} exclusive.
     */
    public record Query(String ownerId, Instant from, Instant to, String agentId, String gadgetId,
            List<String> kinds, Long before, int limit) {
    }

    /** One entry as read back, with the gadget it concerned where the record names one. */
    public record Listed(Entry entry, String gadgetId) {
    }

    /**
     * Entries matching the query, newest first. The audit row has no gadget of its own: a gate's
     * entry concerns its gate's gadget, a run's device command the gadget the run sent it to (the
     * run's action of that command); computing it here keeps the run's hot path free of lookups.
     */
    public List<Listed> query(Query query) {
        StringBuilder sql = new StringBuilder("select * from (select a.*, coalesce(g.gadget_id, "
                + "(select min(ra.gadget_id) from rz_run_action ra where ra.run_id = a.run_id and a.gate_id is null "
                + "and ra.command = a.intent)) as gadget from rz_audit a left join rz_gate g on g.id = a.gate_id");
        List<Object> params = new java.util.ArrayList<>();
        List<String> where = new java.util.ArrayList<>();
        if (query.ownerId() != null) {
            where.add("a.owner_id = ?");
            params.add(query.ownerId());
        }
        if (query.from() != null) {
            where.add("a.at >= ?");
            params.add(Timestamp.from(query.from()));
        }
        if (query.to() != null) {
            where.add("a.at < ?");
            params.add(Timestamp.from(query.to()));
        }
        if (query.agentId() != null) {
            where.add("a.agent_id = ?");
            params.add(query.agentId());
        }
        if (query.kinds() != null && !query.kinds().isEmpty()) {
            where.add("a.disposition in (" + String.join(", ", java.util.Collections.nCopies(query.kinds().size(), "?"))
                    + ")");
            params.addAll(query.kinds());
        }
        if (query.before() != null) {
            where.add("a.id < ?");
            params.add(query.before());
        }
        if (!where.isEmpty()) {
            sql.append(" where ").append(String.join(" and ", where));
        }
        sql.append(") entries");
        if (query.gadgetId() != null) {
            sql.append(" where gadget = ?");
            params.add(query.gadgetId());
        }
        sql.append(" order by id desc limit ?");
        params.add(query.limit());
        return jdbc.sql(sql.toString()).params(params)
                .query((rs, n) -> new Listed(map(rs, n), rs.getString("gadget"))).list();
    }

    private static Entry map(java.sql.ResultSet rs, int n) throws java.sql.SQLException {
        return new Entry(rs.getLong("id"), rs.getTimestamp("at").toInstant(), rs.getString("owner_id"),
                rs.getString("agent_id"), rs.getString("run_id"), rs.getString("gate_id"), rs.getString("intent"),
                rs.getString("disposition"), rs.getString("actor"), rs.getString("rule_id"), rs.getString("detail"));
    }
}
