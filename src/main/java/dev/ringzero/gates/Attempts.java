package dev.ringzero.gates;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.StoredJson;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Pre-send records for executors whose effect leaves the platform (SMTP, HTTP): the record is
 * committed in its own transaction <em>before</em> the effect, and its outcome after it. A crash
 * therefore leaves one of three traces, each reconciled without acting twice:
 * <ul>
 *   <li>no record — nothing was attempted: executing now is not a repeat;</li>
 *   <li>{@code sending} — the effect may or may not have happened: the gate fails with
 *       {@code "outcome":"unknown"} for a human, and is never re-sent blindly;</li>
 *   <li>{@code done} / {@code failed} — the outcome is known and is reported again.</li>
 * </ul>
 * The gate id is the record's primary key, so two racing executions cannot both claim it.
 */
@Component
public class Attempts {

    /** The effect itself; returns a JSON result or throws when it failed. */
    @FunctionalInterface
    public interface Effect {
        String perform() throws Exception;
    }

    /** One stored attempt. */
    public record Attempt(String gateId, String kind, String idempotencyKey, String status, String result) {
    }

    private final JdbcClient jdbc;
    private final TransactionTemplate requiresNew;
    private final ObjectMapper json;
    private final Clock clock;

    Attempts(JdbcClient jdbc, PlatformTransactionManager transactions, ObjectMapper json, Clock clock) {
        this.jdbc = jdbc;
        this.requiresNew = new TransactionTemplate(transactions);
        this.requiresNew.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.json = json;
        this.clock = clock;
    }

    /** An effect outside the platform: claim (committed), perform, record the outcome (committed). */
    public Execution external(Gate gate, String kind, String idempotencyKey, Effect effect) {
        Optional<Attempt> earlier = find(gate.id());
        if (earlier.isPresent()) {
            return from(earlier.get());
        }
        try {
            requiresNew.executeWithoutResult(status -> jdbc.sql("insert into rz_gate_attempt(gate_id, kind, "
                            + "idempotency_key, status, started_at) values (?, ?, ?, 'sending', ?)")
                    .params(gate.id(), kind, idempotencyKey, Timestamp.from(clock.instant())).update());
        } catch (DuplicateKeyException raced) {
            return from(find(gate.id()).orElseThrow());
        }
        String result;
        try {
            result = effect.perform();
        } catch (Exception e) {
            String failure = failure(kind, e);
            finish(gate.id(), "failed", failure);
            return new Execution.Failed(failure);
        }
        finish(gate.id(), "done", result);
        return new Execution.Done(result);
    }

    /**
     * An effect inside this database (the owner's inbox): claim, perform and record commit together,
     * so there is never a {@code sending} record to doubt.
     */
    public Execution local(Gate gate, String kind, Effect effect) {
        try {
            return requiresNew.execute(status -> {
                Optional<Attempt> earlier = find(gate.id());
                if (earlier.isPresent()) {
                    return from(earlier.get());
                }
                jdbc.sql("insert into rz_gate_attempt(gate_id, kind, idempotency_key, status, started_at) "
                        + "values (?, ?, ?, 'sending', ?)")
                        .params(gate.id(), kind, gate.id(), Timestamp.from(clock.instant())).update();
                String result;
                try {
                    result = effect.perform();
                } catch (Exception e) {
                    throw new LocalEffectFailed(e);
                }
                jdbc.sql("update rz_gate_attempt set status = 'done', result = ?, finished_at = ? where gate_id = ?")
                        .params(result, Timestamp.from(clock.instant()), gate.id()).update();
                return new Execution.Done(result);
            });
        } catch (LocalEffectFailed e) {
            return new Execution.Failed(failure(kind, e.getCause()));
        } catch (DuplicateKeyException raced) {
            return from(find(gate.id()).orElseThrow());
        }
    }

    /** What the trace says, or {@link Execution.NotStarted} when there is none. */
    public Execution reconcile(Gate gate) {
        return find(gate.id()).map(this::from).orElseGet(Execution.NotStarted::new);
    }

    public Optional<Attempt> find(String gateId) {
        return jdbc.sql("select gate_id, kind, idempotency_key, status, result from rz_gate_attempt where gate_id = ?")
                .param(gateId)
                .query((rs, n) -> new Attempt(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5)))
                .optional();
    }

    /** The JSON of an outcome nobody can know: the effect may or may not have happened. */
    public String unknown(String detail) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("outcome", "unknown");
        result.put("needsHuman", true);
        result.put("detail", detail);
        return StoredJson.write(json, result);
    }

    private Execution from(Attempt attempt) {
        return switch (attempt.status()) {
            case "done" -> new Execution.Done(attempt.result());
            case "failed" -> new Execution.Failed(attempt.result());
            default -> new Execution.Failed(unknown("the " + attempt.kind() + " attempt (key "
                    + attempt.idempotencyKey() + ") was interrupted; it may or may not have gone out, so it is "
                    + "not sent again — check before proposing it anew"));
        };
    }

    private void finish(String gateId, String status, String result) {
        requiresNew.executeWithoutResult(tx -> jdbc.sql("update rz_gate_attempt set status = ?, result = ?, "
                        + "finished_at = ? where gate_id = ? and status = 'sending'")
                .params(status, result, Timestamp.from(clock.instant()), gateId).update());
    }

    private String failure(String kind, Throwable e) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("outcome", "failed");
        result.put("error", kind + "_failed");
        result.put("message", e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        return StoredJson.write(json, result);
    }

    private static final class LocalEffectFailed extends RuntimeException {
        LocalEffectFailed(Throwable cause) {
            super(cause);
        }
    }
}
