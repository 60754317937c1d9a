package dev.ringzero.gateway;

import java.sql.DatabaseMetaData;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.sql.DataSource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.gadgets.CommandSpec;
import dev.ringzero.gadgets.GadgetRegistry;
import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.CommandKind;
import dev.ringzero.kernel.DenyReason;
import dev.ringzero.kernel.Lease;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.kernel.Verdict;
import dev.ringzero.policy.Movers;
import dev.ringzero.workflow.EngineBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Ring 0's only way to a device. Every command is decided by the kernel at the moment of
 * sending, recorded with its invocation id (the device's idempotency key), published as
 * {@code link.invoke}, and correlated with its {@code link.result}. An invocation is answered
 * once: the first of result or deadline wins, and an {@code unknown} is never re-sent.
 */
@Service
public class Dispatcher {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
    /** Result payload statuses that mean "started, not finished" (reported as accepted). */
    static final Set<String> ACCEPTED_STATUSES = Set.of("accepted", "fetching", "queued", "started", "playing",
            "in_progress");

    /** Whether a command left for the device. */
    public sealed interface Dispatch permits Sent, NotSent {
    }

    public record Sent(String invocationId, Instant deadline) implements Dispatch {
    }

    public record NotSent(Outcome outcome, Verdict verdict) implements Dispatch {
    }

    /** Told of every answered invocation once the answer is recorded (committed), e.g. a gate's. */
    public interface AnswerListener {
        void answered(String invocationId, String runId, Outcome outcome);
    }

    /**
     * Wakes the run that sent an answered invocation, in the transaction that records the answer:
     * one commit for the answer and the step it wakes. If that transaction fails, the answer is
     * recorded alone and the run woken once more in a transaction of its own.
     */
    public interface RunWake {
        void answered(String invocationId, String runId, Outcome outcome);
    }

    private final PolicyKernel kernel;
    private final GadgetRegistry gadgets;
    private final LinkPublisher publisher;
    private final JdbcClient jdbc;
    /** The statement that records an answer, in this database's dialect (see {@link #answerStatement(String)}). */
    private final String answerStatement;
    private final ObjectMapper json;
    private final Clock clock;
    private final List<AnswerListener> listeners;
    private final List<RunWake> runWakes;
    private final Map<String, CompletableFuture<Outcome>> waiting = new ConcurrentHashMap<>();
    /** Device answers waiting for the answer lane; a worker takes up to {@code batchSize} at once. */
    private final java.util.Queue<Arrived> arrived = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final EngineBatch batch;
    private final int batchSize;
    private final Movers movers;

    /** A {@code link.result} as it came from {@code gadgetId}; {@code acknowledge} once it is recorded. */
    private record Arrived(String gadgetId, JsonNode envelope, Runnable acknowledge) {
    }

    /** An invocation this answer settled, and the run (if any) that sent it. */
    private record Answered(String invocationId, String runId, Outcome outcome) {
    }

    Dispatcher(PolicyKernel kernel, GadgetRegistry gadgets, LinkPublisher publisher, JdbcClient jdbc, ObjectMapper json,
            Clock clock, List<AnswerListener> listeners, List<RunWake> runWakes, EngineBatch batch,
            @Value("${ringzero.link.result-batch:8}") int batchSize, DataSource dataSource, Movers movers) {
        this.movers = movers;
        this.answerStatement = answerStatement(databaseProduct(dataSource));
        this.runWakes = runWakes;
        this.batch = batch;
        this.batchSize = Math.max(1, batchSize);
        this.kernel = kernel;
        this.gadgets = gadgets;
        this.publisher = publisher;
        this.jdbc = jdbc;
        this.json = json;
        this.clock = clock;
        this.listeners = listeners;
    }

    /** Asks the kernel, and if allowed records and publishes the invocation. */
    public Dispatch send(ActionRequest request, String origin, String runId) {
        return send(request, origin, runId, UUID.randomUUID().toString());
    }

    /** As {@link #send(ActionRequest, String, String)} with a chosen invocation id (a gate's key). */
    public Dispatch send(ActionRequest request, String origin, String runId, String invocationId) {
        return send(request, origin, runId, invocationId, false);
    }

    /** Sends for a caller that will {@link #await} the answer on this node (the owner's direct path). */
    public Dispatch sendAwaited(ActionRequest request, String origin) {
        return send(request, origin, null, UUID.randomUUID().toString(), true);
    }

    /**
     * {@code awaited}: somebody on this node will {@link #await} the answer, so a future is kept
     * for it; runs and gates are woken through the listeners and keep nothing in memory.
     */
    private Dispatch send(ActionRequest request, String origin, String runId, String invocationId, boolean awaited) {
        Verdict verdict = kernel.decide(request);
        if (!(verdict instanceof Verdict.Allow)) {
            return new NotSent(notSent(verdict), verdict);
        }
        long timeoutMs = gadgets.command(request.gadgetId(), request.command())
                .map(CommandSpec::timeoutMs).orElse(CommandSpec.DEFAULT_TIMEOUT_MS);
        Instant now = clock.instant();
        if (CommandKind.of(request.command()) == CommandKind.MOVE) {
            // one mover at a time, for as long as the device may take to answer (cut to the bound)
            Lease lease = movers.take(invocationId, request.subject(), request.gadgetId(),
                    Duration.ofMillis(timeoutMs), now);
            if (lease instanceof Lease.Busy busy) {
                Verdict.Deny deny = new Verdict.Deny(DenyReason.MOVER_BUSY, "gadget " + request.gadgetId()
                        + " is being moved by another until " + busy.freeAt() + " at the latest; a stop frees it");
                return new NotSent(notSent(deny), deny);
            }
        }
        try {
            return recordAndPublish(request, origin, runId, invocationId, awaited, now, timeoutMs);
        } catch (RuntimeException | Error e) {
            movers.ended(invocationId, clock.instant());
            throw e;
        }
    }

    /** Records the invocation and publishes it (after the caller's transaction commits, if any). */
    private Sent recordAndPublish(ActionRequest request, String origin, String runId, String invocationId,
            boolean awaited, Instant now, long timeoutMs) {
        Instant deadline = now.plusMillis(timeoutMs);
        ObjectNode envelope = json.createObjectNode();
        envelope.put("method", "link.invoke");
        envelope.put("id", invocationId);
        envelope.put("command", request.command());
        envelope.set("params", json.valueToTree(request.params()));
        envelope.put("timeout_ms", timeoutMs);
        envelope.put("deadline", deadline.toEpochMilli());
        jdbc.sql("insert into rz_invocation(id, owner_id, gadget_id, command, params, origin, run_id, outcome, "
                        + "sent_at, deadline) values (?, ?, ?, ?, ?, ?, ?, 'sent', ?, ?)")
                .params(invocationId, request.subject().accountId(), request.gadgetId(), request.command(),
                        envelope.get("params").toString(), origin, runId, Timestamp.from(now),
                        Timestamp.from(deadline))
                .update();
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(envelope);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        if (awaited) {
            waiting.put(invocationId, new CompletableFuture<>());
        }
        Runnable leave = () -> {
            if (CommandKind.stopsMotion(request.command())) {
                movers.stopping(request.gadgetId(), clock.instant()); // a stop frees the gadget as it leaves
            }
            publisher.publish(request.gadgetId(), Topics.INVOKE, bytes);
        };
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            // inside a run's transaction: publish only once the invocation (and the run's wait
            // for its answer) are committed, so a rolled-back step never reaches a device
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    if (status == STATUS_COMMITTED) {
                        leave.run();
                    } else {
                        waiting.remove(invocationId);
                        movers.ended(invocationId, clock.instant());
                    }
                }
            });
        } else {
            leave.run();
        }
        return new Sent(invocationId, deadline);
    }

    /**
     * Waits for the answer until the deadline; then the invocation is {@code unknown}. The
     * device's late answer is recorded but changes nothing.
     */
    public Outcome await(Sent sent) {
        CompletableFuture<Outcome> future = waiting.get(sent.invocationId());
        long millis = Math.max(0, Duration.between(clock.instant(), sent.deadline()).toMillis());
        try {
            if (future != null) {
                return future.get(millis, TimeUnit.MILLISECONDS);
            }
        } catch (TimeoutException e) {
            // the deadline passed without an answer
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            waiting.remove(sent.invocationId());
        }
        return expire(sent.invocationId()).orElseGet(() -> stored(sent.invocationId()));
    }

    /**
     * Marks an unanswered invocation unknown; empty if it was answered meanwhile. Listeners are not
     * told: whoever expires an invocation is the one that waited for it (a run's deadline, a
     * direct command's await).
     */
    public java.util.Optional<Outcome> expire(String invocationId) {
        int updated = jdbc.sql("update rz_invocation set outcome = 'unknown', answered_at = ? where id = ? "
                + "and outcome = 'sent'").params(Timestamp.from(clock.instant()), invocationId).update();
        waiting.remove(invocationId);
        // a move given up on keeps its mover's lease to its bound: the device may still be moving
        return updated == 0 ? java.util.Optional.empty() : java.util.Optional.of(new Outcome.Unknown(invocationId));
    }

    public Outcome invokeAndWait(ActionRequest request, String origin) {
        Dispatch dispatch = sendAwaited(request, origin);
        return dispatch instanceof Sent sent ? await(sent) : ((NotSent) dispatch).outcome();
    }

    /**
     * A {@code link.result} from {@code gadgetId}, on the answer lane; only that gadget's own
     * invocations are answered. The worker records whatever answers have arrived by its turn (at
     * most {@code ringzero.link.result-batch}) in one transaction, and the runs waiting for them go
     * on in that same transaction: one commit for the answer and the step it wakes.
     */
    void onResult(String gadgetId, JsonNode envelope, Runnable acknowledge) {
        arrived.add(new Arrived(gadgetId, envelope, acknowledge));
        List<Arrived> taken = EngineBatch.take(arrived, batchSize);
        List<Answered> committed = new java.util.concurrent.CopyOnWriteArrayList<>();
        batch.run(taken, answer -> settle(answer, committed), this::settleAlone);
        // told once no transaction is open any more: a listener's work (a gate's settlement and
        // its continuation) needs transactions of its own, which a finished one cannot give
        for (Answered answered : committed) {
            complete(answered);
            tell(answered);
        }
    }

    /**
     * In the lane's transaction: records the answer and wakes its run; {@code committed} once it
     * commits, and only then is the answer acknowledged to the broker (a node that dies before
     * gets it again from the broker after its restart).
     */
    private void settle(Arrived answer, List<Answered> committed) {
        java.util.Optional<Answered> recorded = record(answer);
        recorded.ifPresent(this::wake);
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                recorded.ifPresent(committed::add);
                answer.acknowledge().run();
            }
        });
    }

    /**
     * The answer's step failed even alone (say the run's deadline moved it on at the same moment):
     * the answer is recorded by itself, so it is never lost, and its run is woken once more in a
     * transaction of its own; a run that can no longer be woken settles from the record.
     */
    private void settleAlone(Arrived answer, RuntimeException cause) {
        log.info("the step woken by answer {} from {} failed; the answer is recorded alone: {}",
                answer.envelope().path("id").asText(""), answer.gadgetId(), cause.toString());
        java.util.Optional<Answered> recorded;
        try {
            recorded = record(answer);
        } finally {
            // recorded, late, or not recordable now (the database down): acknowledged either way.
            // Paho delivers an unacknowledged message again only on a new connection, so answers
            // held back through an outage would fill the broker's window and stop all the others.
            answer.acknowledge().run();
        }
        recorded.ifPresent(answered -> {
            try {
                wake(answered);
            } catch (RuntimeException e) {
                log.info("the run waiting for {} was not woken: {}", answered.invocationId(), e.toString());
            }
            complete(answered);
            tell(answered);
        });
    }

    private void wake(Answered answered) {
        if (answered.runId() != null) {
            for (RunWake wake : runWakes) {
                wake.answered(answered.invocationId(), answered.runId(), answered.outcome());
            }
        }
    }

    /** Tells the listeners, after the answer is recorded; one listener's failure is its own. */
    private void tell(Answered answered) {
        for (AnswerListener listener : listeners) {
            try {
                listener.answered(answered.invocationId(), answered.runId(), answered.outcome());
            } catch (RuntimeException e) {
                log.warn("a listener of answer {} failed: {}", answered.invocationId(), e.toString());
            }
        }
    }

    /** Records the first answer to an invocation of this gadget; empty for a late or foreign one. */
    private java.util.Optional<Answered> record(Arrived answer) {
        JsonNode envelope = answer.envelope();
        String id = envelope.path("id").asText("");
        Outcome outcome = toOutcome(id, envelope);
        String errorCode = outcome instanceof Outcome.Failed failed ? failed.errorCode() : null;
        JsonNode payload = envelope.has("payload") ? envelope.get("payload") : envelope.path("error");
        // one statement records the answer and names the run it belongs to (null for a direct command)
        List<java.util.Optional<String>> updated = jdbc.sql(answerStatement)
                .params(outcome.status(), errorCode, payload.isMissingNode() ? null : payload.toString(),
                        Timestamp.from(clock.instant()), id, answer.gadgetId())
                .query((rs, n) -> java.util.Optional.ofNullable(rs.getString(1)))
                .list();
        if (updated.isEmpty()) {
            log.debug("late or foreign link.result {} from {} ignored", id, answer.gadgetId());
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Answered(id, updated.get(0).orElse(null), outcome));
    }

    private static String databaseProduct(DataSource dataSource) {
        try {
            return JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName);
        } catch (MetaDataAccessException e) {
            throw new IllegalStateException("cannot tell which database records answers", e);
        }
    }

    /**
     * The update that records an answer and returns the invocation's run, in the dialect of
     * {@code databaseProduct}: PostgreSQL says {@code returning}; H2, which has no returning clause,
     * reads the updated row as a "final table".
     */
    static String answerStatement(String databaseProduct) {
        String update = "update rz_invocation set outcome = ?, error_code = ?, result = ?, answered_at = ? "
                + "where id = ? and gadget_id = ? and outcome = 'sent'";
        return switch (databaseProduct) {
            case "PostgreSQL" -> update + " returning run_id";
            case "H2" -> "select run_id from final table (" + update + ")";
            default -> throw new IllegalStateException("RingZero runs on PostgreSQL or H2, not " + databaseProduct);
        };
    }

    /** Hands the outcome to a caller on this node that {@link #await awaits} it; a move's lease ends. */
    private void complete(Answered answered) {
        movers.ended(answered.invocationId(), clock.instant());
        CompletableFuture<Outcome> future = waiting.remove(answered.invocationId());
        if (future != null) {
            future.complete(answered.outcome());
        }
    }

    boolean knows(String gadgetId, String invocationId) {
        return jdbc.sql("select count(*) from rz_invocation where id = ? and gadget_id = ?")
                .params(invocationId, gadgetId).query(Integer.class).single() > 0;
    }

    /** The recorded outcome of an invocation (still 'sent' reads as unknown). */
    public Outcome stored(String invocationId) {
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

    private static Outcome toOutcome(String id, JsonNode envelope) {
        if (!envelope.path("ok").asBoolean(false)) {
            JsonNode error = envelope.path("error");
            return new Outcome.Failed(id, error.path("code").asText("handler_failed"), error.path("message").asText(""));
        }
        JsonNode payload = envelope.path("payload");
        String status = payload.path("status").asText("");
        return ACCEPTED_STATUSES.contains(status) ? new Outcome.Accepted(id, payload)
                : new Outcome.Completed(id, payload);
    }

    private static Outcome notSent(Verdict verdict) {
        if (verdict instanceof Verdict.Deny deny) {
            return deny.reason() == DenyReason.OFFLINE ? new Outcome.Offline()
                    : new Outcome.Denied(deny.reason().wire(), deny.detail());
        }
        if (verdict instanceof Verdict.Gate) {
            return new Outcome.Denied("gated", "this action needs the owner's approval");
        }
        if (verdict instanceof Verdict.OverBudget over) {
            return new Outcome.Denied("over_budget", over.budget());
        }
        throw new IllegalArgumentException("an allowed action is sent, not refused");
    }
}
