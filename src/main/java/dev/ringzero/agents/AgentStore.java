package dev.ringzero.agents;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.ringzero.TransactionReads;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.agents.definition.Trigger;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Agents, their immutable revisions, state, and the router's index of event triggers. */
// a plain component: JdbcClient already throws DataAccessException, and @Repository's translating
// proxy would cost every read of the run path a reflective call
@Component
public class AgentStore {

    /** One agent as stored: its current revision's spec is read separately. */
    public record Agent(String id, String ownerId, String name, int currentRevision, boolean enabled, boolean deleted,
            String state, int stateVersion, Instant createdAt, Instant updatedAt) {
    }

    private static final String COLUMNS = "id, owner_id, name, current_revision, enabled, deleted, state, "
            + "state_version, created_at, updated_at";

    private final JdbcClient jdbc;
    private final TransactionReads reads;

    AgentStore(JdbcClient jdbc, TransactionReads reads) {
        this.jdbc = jdbc;
        this.reads = reads;
    }

    void insert(String id, String ownerId, AgentSpec spec, String specJson, Instant at) {
        jdbc.sql("insert into rz_agent(" + COLUMNS + ") values (?, ?, ?, 1, ?, false, ?, 0, ?, ?)")
                .params(id, ownerId, spec.name(), spec.enabled(), spec.state().toString(), ts(at), ts(at)).update();
        insertRevision(id, 1, specJson, at);
        indexTriggers(id, spec);
    }

    /** Adds revision {@code expected + 1} and makes it current; false if someone revised meanwhile. */
    boolean revise(String id, int expected, AgentSpec spec, String specJson, Instant at) {
        reads.forget(key(id));
        int updated = jdbc.sql("update rz_agent set current_revision = ?, name = ?, enabled = ?, updated_at = ? "
                        + "where id = ? and current_revision = ? and not deleted")
                .params(expected + 1, spec.name(), spec.enabled(), ts(at), id, expected).update();
        if (updated == 0) {
            return false;
        }
        insertRevision(id, expected + 1, specJson, at);
        indexTriggers(id, spec);
        return true;
    }

    boolean setEnabled(String id, boolean enabled, Instant at) {
        reads.forget(key(id));
        return jdbc.sql("update rz_agent set enabled = ?, updated_at = ? where id = ? and not deleted")
                .params(enabled, ts(at), id).update() == 1;
    }

    boolean delete(String id, Instant at) {
        reads.forget(key(id));
        jdbc.sql("delete from rz_agent_trigger where agent_id = ?").param(id).update();
        return jdbc.sql("update rz_agent set deleted = true, enabled = false, updated_at = ? where id = ? "
                + "and not deleted").params(ts(at), id).update() == 1;
    }

    /**
     * Replaces the agent's state if it is still at {@code expectedVersion} (compare and set); the
     * new version, or empty if another write came first or the agent is gone. The caller checks
     * the size limit.
     */
    public Optional<Integer> writeState(String id, int expectedVersion, String state, Instant at) {
        reads.forget(key(id));
        int written = jdbc.sql("update rz_agent set state = ?, state_version = state_version + 1, updated_at = ? "
                        + "where id = ? and state_version = ? and not deleted")
                .params(state, ts(at), id, expectedVersion).update();
        return written == 1 ? Optional.of(expectedVersion + 1) : Optional.empty();
    }

    /** Read once per transaction (routing, admission, dispatch and finish all ask), until it is written. */
    public Optional<Agent> find(String id) {
        return reads.get(key(id), () -> jdbc.sql("select " + COLUMNS + " from rz_agent where id = ?").param(id)
                .query(AgentStore::map).optional());
    }

    /**
     * Locks the agent's row until the transaction ends and reads it again: from here on the
     * transaction sees what the lock's holder before it (a disable, a revision) left, not what it
     * read before it waited. A row this transaction locked already is not read again.
     */
    public Optional<Agent> lock(String id) {
        if (reads.get(lockedKey(id), () -> Boolean.FALSE)) {
            // locked by this transaction already (say by lockListening): nobody else changed it since
            return find(id);
        }
        reads.forget(key(id));
        Optional<Agent> agent = reads.get(key(id), () -> jdbc.sql("select " + COLUMNS + " from rz_agent where id = ? "
                + "for update").param(id).query(AgentStore::map).optional());
        reads.put(lockedKey(id), Boolean.TRUE);
        return agent;
    }

    private static String key(String id) {
        return "agent:" + id;
    }

    /** Present (true) once the transaction holds the agent's row lock. */
    private static String lockedKey(String id) {
        return "agent-locked:" + id;
    }

    public Optional<Agent> findOwned(String ownerId, String id) {
        return find(id).filter(agent -> agent.ownerId().equals(ownerId) && !agent.deleted());
    }

    public List<Agent> list(String ownerId) {
        return jdbc.sql("select " + COLUMNS + " from rz_agent where owner_id = ? and not deleted order by created_at")
                .param(ownerId).query(AgentStore::map).list();
    }

    public Optional<String> spec(String id, int revision) {
        return jdbc.sql("select spec from rz_agent_revision where agent_id = ? and revision = ?")
                .params(id, revision).query(String.class).optional();
    }

    /**
     * The owner's agents (not deleted) whose current revision has a gadget.event trigger for this
     * gadget and event, in id order, each locked as {@link #lock} locks it, until the transaction
     * ends. Routing judges them and admits the matches in this transaction, and admission takes
     * this very lock: one statement reads and locks them all, where a read to route and a locking
     * read per admission were two per agent. The rows (as the lock left them) are what
     * {@link #find} and {@link #lock} give for the rest of the transaction. Locked in id order, as
     * admissions one by one locked them before; an agent the event does not match (disabled,
     * filtered out) is held too, for the few milliseconds of one event's transaction.
     */
    public List<Agent> lockListening(String gadgetId, String ownerId, String event) {
        List<Agent> agents = jdbc.sql("select " + COLUMNS + " from rz_agent where not deleted and owner_id = ? "
                        + "and id in (select agent_id from rz_agent_trigger where gadget_id = ? and event = ?) "
                        + "order by id for update")
                .params(ownerId, gadgetId, event).query(AgentStore::map).list();
        for (Agent agent : agents) {
            reads.put(key(agent.id()), Optional.of(agent));
            reads.put(lockedKey(agent.id()), Boolean.TRUE);
        }
        return agents;
    }

    private void insertRevision(String id, int revision, String specJson, Instant at) {
        jdbc.sql("insert into rz_agent_revision(agent_id, revision, spec, created_at) values (?, ?, ?, ?)")
                .params(id, revision, specJson, ts(at)).update();
    }

    private void indexTriggers(String id, AgentSpec spec) {
        jdbc.sql("delete from rz_agent_trigger where agent_id = ?").param(id).update();
        List<Trigger> triggers = spec.triggers();
        for (int i = 0; i < triggers.size(); i++) {
            if (triggers.get(i) instanceof Trigger.GadgetEventTrigger event) {
                jdbc.sql("insert into rz_agent_trigger(agent_id, trigger_index, gadget_id, event) values (?, ?, ?, ?)")
                        .params(id, i, event.gadget(), event.event()).update();
            }
        }
    }

    private static Agent map(ResultSet rs, int n) throws SQLException {
        return new Agent(rs.getString("id"), rs.getString("owner_id"), rs.getString("name"),
                rs.getInt("current_revision"), rs.getBoolean("enabled"), rs.getBoolean("deleted"),
                rs.getString("state"), rs.getInt("state_version"), rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("updated_at").toInstant());
    }

    private static Timestamp ts(Instant instant) {
        return Timestamp.from(instant);
    }
}
