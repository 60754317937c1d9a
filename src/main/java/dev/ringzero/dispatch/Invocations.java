package dev.ringzero.dispatch;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.SqlDialect;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * {@code rz_invocation}: every command ring 0 sent, with its deadline and its one outcome. The
 * first of answer or expiry wins (each update requires {@code outcome = 'sent'}), so an
 * invocation is settled once whoever gets there first.
 */
@Component
class Invocations {

    /** An answer recorded: the invocation it settled, the run that sent it (null for none), the outcome. */
    record Answered(String invocationId, String runId, Outcome outcome) {
    }

    private final JdbcClient jdbc;
    private final ObjectMapper json;
    /** The statement that records an answer, in this database's dialect (see {@link #answerStatement}). */
    private final String answerStatement;

    Invocations(JdbcClient jdbc, ObjectMapper json, SqlDialect dialect) {
        this.jdbc = jdbc;
        this.json = json;
        this.answerStatement = answerStatement(dialect);
    }

    void insert(String invocationId, String ownerId, String gadgetId, String command, String params, String origin,
            String runId, Instant sentAt, Instant deadline) {
        jdbc.sql("insert into rz_invocation(id, owner_id, gadget_id, command, params, origin, run_id, outcome, "
                        + "sent_at, deadline) values (?, ?, ?, ?, ?, ?, ?, 'sent', ?, ?)")
                .params(invocationId, ownerId, gadgetId, command, params, origin, runId, Timestamp.from(sentAt),
                        Timestamp.from(deadline))
                .update();
    }

    /** Records the first answer to an invocation of this gadget; empty for a late or foreign one. */
    Optional<Answered> answer(String gadgetId, Outcome outcome, JsonNode payload, Instant at) {
        String errorCode = outcome instanceof Outcome.Failed failed ? failed.errorCode() : null;
        // one statement records the answer and names the run it belongs to (null for a direct command)
        List<Optional<String>> updated = jdbc.sql(answerStatement)
                .params(outcome.status(), errorCode, payload.isMissingNode() ? null : payload.toString(),
                        Timestamp.from(at), outcome.invocationId(), gadgetId)
                .query((rs, n) -> Optional.ofNullable(rs.getString(1)))
                .list();
        return updated.isEmpty() ? Optional.empty()
                : Optional.of(new Answered(outcome.invocationId(), updated.get(0).orElse(null), outcome));
    }

    /** Marks an unanswered invocation unknown; false if it was answered meanwhile. */
    boolean expire(String invocationId, Instant at) {
        return jdbc.sql("update rz_invocation set outcome = 'unknown', answered_at = ? where id = ? "
                + "and outcome = 'sent'").params(Timestamp.from(at), invocationId).update() > 0;
    }

    Optional<Invocation> find(String invocationId) {
        return jdbc.sql("select id, gadget_id, command, params, outcome, sent_at, deadline from rz_invocation "
                        + "where id = ?")
                .param(invocationId)
                .query((rs, n) -> new Invocation(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), instant(rs.getTimestamp(6)), instant(rs.getTimestamp(7))))
                .optional();
    }

    /** The recorded answer of an invocation; empty while it is still 'sent'. */
    Optional<Outcome> answered(String invocationId) {
        return jdbc.sql("select outcome, error_code, result from rz_invocation where id = ? and outcome <> 'sent'")
                .param(invocationId)
                .query((rs, n) -> rebuild(invocationId, rs.getString(1), rs.getString(2), rs.getString(3)))
                .optional();
    }

    /** The recorded outcome of an invocation (still 'sent' reads as unknown). */
    Outcome stored(String invocationId) {
        return jdbc.sql("select outcome, error_code, result from rz_invocation where id = ?").param(invocationId)
                .query((rs, n) -> rebuild(invocationId, rs.getString(1), rs.getString(2), rs.getString(3)))
                .single();
    }

    private Outcome rebuild(String id, String status, String errorCode, String result) {
        JsonNode payload;
        try {
            payload = result == null ? json.nullNode() : json.readTree(result);
        } catch (JsonProcessingException e) {
            payload = json.nullNode();
        }
        return switch (status) {
            case "completed" -> new Outcome.Completed(id, payload);
            case "accepted" -> new Outcome.Accepted(id, payload);
            case "failed" -> new Outcome.Failed(id, errorCode, payload.path("message").asText(""));
            default -> new Outcome.Unknown(id);
        };
    }

    /**
     * The update that records an answer and returns the invocation's run, in {@code dialect}:
     * PostgreSQL says {@code returning}; H2, which has no returning clause, reads the updated row as
     * a "final table".
     */
    static String answerStatement(SqlDialect dialect) {
        String update = "update rz_invocation set outcome = ?, error_code = ?, result = ?, answered_at = ? "
                + "where id = ? and gadget_id = ? and outcome = 'sent'";
        return switch (dialect) {
            case POSTGRESQL -> update + " returning run_id";
            case H2 -> "select run_id from final table (" + update + ")";
        };
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
