package dev.ringzero.gates;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The gate table. Every state change is a compare-and-set on the current state. */
@Repository
class GateStore {

    private static final String COLUMNS = "id, owner_id, agent_id, run_id, intent, gadget_id, payload, payload_sha256, "
            + "rationale, state, decided_by, decision_note, result, process_instance_id, filed_at, decided_at, "
            + "executing_at, finished_at";

    private final JdbcClient jdbc;

    GateStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void insert(Gate gate) {
        jdbc.sql("insert into rz_gate(id, owner_id, agent_id, run_id, intent, gadget_id, payload, payload_sha256, "
                        + "rationale, state, filed_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                .params(gate.id(), gate.ownerId(), gate.agentId(), gate.runId(), gate.intent(), gate.gadgetId(),
                        gate.payload(), gate.payloadSha256(), gate.rationale(), gate.state().wire(),
                        ts(gate.filedAt()))
                .update();
    }

    void attachProcess(String gateId, String processInstanceId) {
        jdbc.sql("update rz_gate set process_instance_id = ? where id = ?").params(processInstanceId, gateId).update();
    }

    Optional<Gate> find(String id) {
        return jdbc.sql("select " + COLUMNS + " from rz_gate where id = ?").param(id).query(GateStore::map).optional();
    }

    Optional<Gate> findOwned(String ownerId, String id) {
        return find(id).filter(gate -> gate.ownerId().equals(ownerId));
    }

    List<Gate> list(String ownerId, GateState state, int limit) {
        if (state == null) {
            return jdbc.sql("select " + COLUMNS + " from rz_gate where owner_id = ? order by filed_at desc limit ?")
                    .params(ownerId, limit).query(GateStore::map).list();
        }
        return jdbc.sql("select " + COLUMNS + " from rz_gate where owner_id = ? and state = ? "
                        + "order by filed_at desc limit ?")
                .params(ownerId, state.wire(), limit).query(GateStore::map).list();
    }

    /** pending → approved | denied, recording who decided. False if it was no longer pending. */
    boolean decide(String id, GateState to, String decidedBy, String note, Instant at) {
        return jdbc.sql("update rz_gate set state = ?, decided_by = ?, decision_note = ?, decided_at = ?, "
                        + "version = version + 1 where id = ? and state = 'pending'")
                .params(to.wire(), decidedBy, note, ts(at), id).update() == 1;
    }

    /** Moves from one state to another; false when the gate was not in {@code from}. */
    boolean transition(String id, GateState from, GateState to, String result, Instant at) {
        String column = switch (to) {
            case EXECUTING -> "executing_at";
            case APPROVED, DENIED -> "decided_at";
            default -> "finished_at";
        };
        return jdbc.sql("update rz_gate set state = ?, result = coalesce(?, result), " + column + " = ?, "
                        + "version = version + 1 where id = ? and state = ?")
                .params(to.wire(), result, ts(at), id, from.wire()).update() == 1;
    }

    private static Gate map(ResultSet rs, int row) throws SQLException {
        return new Gate(rs.getString("id"), rs.getString("owner_id"), rs.getString("agent_id"),
                rs.getString("run_id"), rs.getString("intent"), rs.getString("gadget_id"), rs.getString("payload"),
                rs.getString("payload_sha256"), rs.getString("rationale"), GateState.fromWire(rs.getString("state")),
                rs.getString("decided_by"), rs.getString("decision_note"), rs.getString("result"),
                rs.getString("process_instance_id"), instant(rs, "filed_at"), instant(rs, "decided_at"),
                instant(rs, "executing_at"), instant(rs, "finished_at"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }

    private static Timestamp ts(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }
}
