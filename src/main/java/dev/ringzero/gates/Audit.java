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
        jdbc.sql("insert into rz_audit(at, owner_id, agent_id, run_id, gate_id, intent, disposition, actor, rule_id, "
                        + "detail) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                .params(Timestamp.from(clock.instant()), ownerId, agentId, runId, gateId, intent, disposition.wire(),
                        actor == null ? "system" : actor, ruleId, detail)
                .update();
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

    private static Entry map(java.sql.ResultSet rs, int n) throws java.sql.SQLException {
        return new Entry(rs.getLong("id"), rs.getTimestamp("at").toInstant(), rs.getString("owner_id"),
                rs.getString("agent_id"), rs.getString("run_id"), rs.getString("gate_id"), rs.getString("intent"),
                rs.getString("disposition"), rs.getString("actor"), rs.getString("rule_id"), rs.getString("detail"));
    }
}
