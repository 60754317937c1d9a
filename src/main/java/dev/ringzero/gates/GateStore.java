package dev.ringzero.gates;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.ringzero.kernel.TrustHistory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The gate table. Every state change is a compare-and-set on the current state. */
// a plain component: JdbcClient already throws DataAccessException, and @Repository's translating
// proxy would cost every read of the run path a reflective call
@Component
class GateStore {

    private static final String COLUMNS = "id, owner_id, agent_id, run_id, intent, gadget_id, payload, payload_sha256, "
            + "rationale, state, decided_by, decision_note, result, process_instance_id, filed_at, decided_at, "
            + "executing_at, finished_at, rule_id, auto";

    private final JdbcClient jdbc;
    /** This node's name: an executing gate records who executes it (see {@link #executingToReconcile}). */
    private final String node;

    GateStore(JdbcClient jdbc, @Value("${ringzero.mqtt.node-id:1}") String node) {
        this.jdbc = jdbc;
        this.node = node;
    }

    void insert(Gate gate) {
        jdbc.sql("insert into rz_gate(id, owner_id, agent_id, run_id, intent, gadget_id, payload, payload_sha256, "
                        + "rationale, state, filed_at, decided_at, executing_at, rule_id, auto, executing_node) "
                        + "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                .params(gate.id(), gate.ownerId(), gate.agentId(), gate.runId(), gate.intent(),
                        gate.proposal().gadgetId(), gate.payload(), gate.proposal().payloadSha256(),
                        gate.proposal().rationale(), gate.state().wire(), ts(gate.timeline().filedAt()),
                        ts(gate.timeline().decidedAt()), ts(gate.timeline().executingAt()), gate.ruleId(), gate.auto(),
                        gate.state() == GateState.EXECUTING ? node : null)
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

    /**
     * Ended gates of every owner (analysts), newest first by filing; null filters do not filter.
     * {@code afterFiledAt}/{@code afterId}: the last gate of the previous page.
     */
    List<Gate> ended(String agentId, String gadgetId, List<String> states, java.time.Instant from,
            java.time.Instant to, java.time.Instant afterFiledAt, String afterId, int limit) {
        StringBuilder sql = new StringBuilder("select " + COLUMNS + " from rz_gate where state in ('executed', "
                + "'failed', 'denied', 'expired', 'fenced')");
        List<Object> params = new java.util.ArrayList<>();
        if (agentId != null) {
            sql.append(" and agent_id = ?");
            params.add(agentId);
        }
        if (gadgetId != null) {
            sql.append(" and gadget_id = ?");
            params.add(gadgetId);
        }
        if (states != null && !states.isEmpty()) {
            sql.append(" and state in (").append(String.join(", ", java.util.Collections.nCopies(states.size(), "?")))
                    .append(")");
            params.addAll(states);
        }
        if (from != null) {
            sql.append(" and filed_at >= ?");
            params.add(ts(from));
        }
        if (to != null) {
            sql.append(" and filed_at < ?");
            params.add(ts(to));
        }
        if (afterFiledAt != null) {
            sql.append(" and (filed_at < ? or (filed_at = ? and id < ?))");
            params.add(ts(afterFiledAt));
            params.add(ts(afterFiledAt));
            params.add(afterId);
        }
        sql.append(" order by filed_at desc, id desc limit ?");
        params.add(limit);
        return jdbc.sql(sql.toString()).params(params).query(GateStore::map).list();
    }

    /**
     * The executing gates this node's start must look at, oldest first: every one a process may
     * carry (the reconciler asks the engine whether it still does), and of the auto gates, which no
     * process carries, those this node executes (its previous life's) or a platform before issue 24
     * left without a node. Another node's auto gate is that node's: it may be executing it now.
     */
    List<Gate> executingToReconcile() {
        return jdbc.sql("select " + COLUMNS + " from rz_gate where state = 'executing' "
                        + "and (not auto or executing_node is null or executing_node = ?) order by filed_at")
                .param(node).query(GateStore::map).list();
    }

    List<Gate> pendingOfAgent(String agentId) {
        return jdbc.sql("select " + COLUMNS + " from rz_gate where agent_id = ? and state = 'pending'")
                .param(agentId).query(GateStore::map).list();
    }

    List<Gate> pendingOfGadget(String gadgetId) {
        return jdbc.sql("select " + COLUMNS + " from rz_gate where gadget_id = ? and state = 'pending'")
                .param(gadgetId).query(GateStore::map).list();
    }

    /** An agent's gates that are still open, or that finished at or after {@code since}. */
    List<Gate> briefing(String agentId, Instant since) {
        return jdbc.sql("select " + COLUMNS + " from rz_gate where agent_id = ? and (state in ('pending', 'approved', "
                        + "'executing') or finished_at >= ? or (finished_at is null and decided_at >= ?)) "
                        + "order by filed_at")
                .params(agentId, ts(since), ts(since)).query(GateStore::map).list();
    }

    /**
     * Human decisions on gates this rule sent to the desk for this agent and intent, decided at or
     * after {@code since}: what an earned rule earns from. Auto-executions are not decisions.
     */
    List<TrustHistory.Disposition> dispositions(String ownerId, String agentId, String intent, String ruleId,
            Instant since) {
        return jdbc.sql("select decided_at, state from rz_gate where owner_id = ? and agent_id = ? and intent = ? "
                        + "and rule_id = ? and not auto and decided_by is not null and decided_at >= ? "
                        + "and state in ('approved', 'executing', 'executed', 'failed', 'denied')")
                .params(ownerId, agentId, intent, ruleId, ts(since))
                .query((rs, n) -> new TrustHistory.Disposition(rs.getTimestamp(1).toInstant(),
                        !"denied".equals(rs.getString(2)), "executed".equals(rs.getString(2))))
                .list();
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
        // the node that begins executing a gate is its executor (executingToReconcile)
        String executor = to == GateState.EXECUTING ? node : null;
        return jdbc.sql("update rz_gate set state = ?, result = coalesce(?, result), " + column + " = ?, "
                        + "executing_node = coalesce(?, executing_node), version = version + 1 "
                        + "where id = ? and state = ?")
                .params(to.wire(), result, ts(at), executor, id, from.wire()).update() == 1;
    }

    private static Gate map(ResultSet rs, int row) throws SQLException {
        Gate.Proposal proposal = new Gate.Proposal(rs.getString("owner_id"), rs.getString("agent_id"),
                rs.getString("run_id"), rs.getString("intent"), rs.getString("gadget_id"), rs.getString("payload"),
                rs.getString("payload_sha256"), rs.getString("rationale"));
        Gate.Decision decision = new Gate.Decision(rs.getString("rule_id"), rs.getBoolean("auto"),
                rs.getString("decided_by"), rs.getString("decision_note"));
        Gate.Timeline timeline = new Gate.Timeline(instant(rs, "filed_at"), instant(rs, "decided_at"),
                instant(rs, "executing_at"), instant(rs, "finished_at"));
        return new Gate(rs.getString("id"), GateState.fromWire(rs.getString("state")), proposal, decision, timeline,
                rs.getString("result"), rs.getString("process_instance_id"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }

    static Timestamp ts(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }
}
