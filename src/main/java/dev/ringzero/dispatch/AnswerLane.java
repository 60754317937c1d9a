package dev.ringzero.dispatch;

import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.Batches;
import dev.ringzero.policy.Movers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The answer lane: each {@code link.result} is recorded by its invocation id (first answer wins,
 * only the gadget's own invocations are answered) and, in the same transaction, the run waiting for
 * it is woken (an llm session's after the commit, once the device events had their turn: see
 * {@link RunWake}). A worker takes whatever answers have arrived by its turn (at most
 * {@code ringzero.link.result-batch}) into one transaction: one commit for the answers and the steps
 * they wake. An answer is acknowledged to the broker only once it is recorded; while the database
 * is away it waits, unacknowledged, and is tried again every {@link #RETRY_AFTER}.
 */
@Component
public class AnswerLane {

    private static final Logger log = LoggerFactory.getLogger(AnswerLane.class);
    /** Result payload statuses that mean "started, not finished" (reported as accepted). */
    static final Set<String> ACCEPTED_STATUSES = Set.of("accepted", "fetching", "queued", "started", "playing",
            "in_progress");
    /** How long an answer waits before it is tried again when the database refused it. */
    static final java.time.Duration RETRY_AFTER = java.time.Duration.ofSeconds(1);

    /** A {@code link.result} as it came from {@code gadgetId}; {@code acknowledge} once it is recorded. */
    private record Arrived(String gadgetId, JsonNode envelope, Runnable acknowledge) {
    }

    private final Invocations invocations;
    private final AwaitedAnswers awaited;
    private final Movers movers;
    private final List<AnswerListener> listeners;
    private final List<RunWake> runWakes;
    private final Batches batch;
    private final int batchSize;
    private final java.time.Clock clock;
    private final TaskScheduler scheduler;
    /** The answer lane's threads, where an answer tried again goes back to. */
    private final java.util.concurrent.Executor workers;
    /** Device answers waiting for the lane; a worker takes up to {@code batchSize} at once. */
    private final Queue<Arrived> arrived = new ConcurrentLinkedQueue<>();

    AnswerLane(Invocations invocations, AwaitedAnswers awaited, Movers movers, List<AnswerListener> listeners,
            List<RunWake> runWakes, Batches batch, @Value("${ringzero.link.result-batch:8}") int batchSize,
            java.time.Clock clock, TaskScheduler scheduler,
            @Qualifier("linkResultWorkers") java.util.concurrent.Executor workers) {
        this.scheduler = scheduler;
        this.workers = workers;
        this.invocations = invocations;
        this.awaited = awaited;
        this.movers = movers;
        this.listeners = listeners;
        this.runWakes = runWakes;
        this.batch = batch;
        this.batchSize = Math.max(1, batchSize);
        this.clock = clock;
    }

    /** A {@code link.result} from {@code gadgetId}, on one of the answer lane's threads. */
    public void onResult(String gadgetId, JsonNode envelope, Runnable acknowledge) {
        arrived.add(new Arrived(gadgetId, envelope, acknowledge));
        List<Arrived> taken = Batches.take(arrived, batchSize);
        List<Invocations.Answered> committed = new CopyOnWriteArrayList<>();
        batch.run(taken, answer -> settle(answer, committed), this::settleAlone);
        // told once no transaction is open any more: a listener's work (a gate's settlement and
        // its continuation) needs transactions of its own, which a finished one cannot give
        for (Invocations.Answered answered : committed) {
            complete(answered);
            tell(answered);
        }
    }

    /**
     * Records {@code envelope}, a {@code link.result} from {@code gadgetId}, and wakes its run in
     * the caller's transaction, as the lane does, with nothing to acknowledge: the node's rehearsal
     * of its hot path ({@code dev.ringzero.rehearsal}), whose transaction never commits.
     */
    public void settleHere(String gadgetId, JsonNode envelope) {
        Optional<Invocations.Answered> recorded = record(new Arrived(gadgetId, envelope, () -> { }));
        recorded.ifPresent(answered -> wake(answered, true));
    }

    /**
     * In the lane's transaction: records the answer and wakes its run (or has it woken after the
     * commit, an llm session's: {@link RunWake}); {@code committed} once it
     * commits, and only then is the answer acknowledged to the broker (a node that dies before
     * gets it again from the broker after its restart).
     */
    private void settle(Arrived answer, List<Invocations.Answered> committed) {
        Optional<Invocations.Answered> recorded = record(answer);
        recorded.ifPresent(answered -> wake(answered, false));
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
     * transaction of its own; a run that can no longer be woken settles from the record. If the
     * database is away even for that, the answer stays the broker's (unacknowledged) and is tried
     * again shortly, as an event is: acknowledged and dropped, it was lost, and a command the device
     * had carried out ended {@code unknown} at its deadline (the fault suite's PostgreSQL restart).
     */
    private void settleAlone(Arrived answer, RuntimeException cause) {
        log.info("the step woken by answer {} from {} failed; the answer is recorded alone: {}",
                answer.envelope().path("id").asText(""), answer.gadgetId(), cause.toString());
        Optional<Invocations.Answered> recorded;
        try {
            recorded = record(answer);
        } catch (TransientDataAccessException | RecoverableDataAccessException | DataAccessResourceFailureException e) {
            // held here, not in the broker: Paho delivers an unacknowledged message again only on a
            // new connection, so it is this node that tries again, and acknowledges once recorded
            log.warn("recording answer {} from {} failed; tried again in {}: {}",
                    answer.envelope().path("id").asText(""), answer.gadgetId(), RETRY_AFTER, e.toString());
            scheduler.schedule(() -> workers.execute(() -> onResult(answer.gadgetId(), answer.envelope(),
                    answer.acknowledge())), clock.instant().plus(RETRY_AFTER));
            return;
        } catch (RuntimeException e) {
            // not the database being away: this answer cannot be recorded, and never will be
            answer.acknowledge().run();
            throw e;
        }
        answer.acknowledge().run();
        recorded.ifPresent(answered -> {
            try {
                wake(answered, true);
            } catch (RuntimeException e) {
                log.info("the run waiting for {} was not woken: {}", answered.invocationId(), e.toString());
            }
            complete(answered);
            tell(answered);
        });
    }

    private Optional<Invocations.Answered> record(Arrived answer) {
        JsonNode envelope = answer.envelope();
        Outcome outcome = outcomeOf(envelope);
        JsonNode payload = envelope.has("payload") ? envelope.get("payload") : envelope.path("error");
        Optional<Invocations.Answered> recorded = invocations.answer(answer.gadgetId(), outcome, payload,
                clock.instant());
        if (recorded.isEmpty()) {
            log.debug("late or foreign link.result {} from {} ignored", outcome.invocationId(), answer.gadgetId());
        }
        return recorded;
    }

    private void wake(Invocations.Answered answered, boolean atOnce) {
        if (answered.runId() != null) {
            for (RunWake wake : runWakes) {
                wake.answered(answered.invocationId(), answered.runId(), answered.outcome(), atOnce);
            }
        }
    }

    /** Tells the listeners, after the answer is recorded; one listener's failure is its own. */
    private void tell(Invocations.Answered answered) {
        for (AnswerListener listener : listeners) {
            try {
                listener.answered(answered.invocationId(), answered.runId(), answered.outcome());
            } catch (RuntimeException e) {
                log.warn("a listener of answer {} failed: {}", answered.invocationId(), e.toString());
            }
        }
    }

    /** Hands the outcome to a caller on this node that awaits it; a move's lease ends. */
    private void complete(Invocations.Answered answered) {
        movers.ended(answered.invocationId(), clock.instant());
        awaited.complete(answered.invocationId(), answered.outcome());
    }

    /** What a {@code link.result} envelope says became of its invocation. */
    static Outcome outcomeOf(JsonNode envelope) {
        String id = envelope.path("id").asText("");
        if (!envelope.path("ok").asBoolean(false)) {
            JsonNode error = envelope.path("error");
            return new Outcome.Failed(id, error.path("code").asText("handler_failed"), error.path("message").asText(""));
        }
        JsonNode payload = envelope.path("payload");
        String status = payload.path("status").asText("");
        return ACCEPTED_STATUSES.contains(status) ? new Outcome.Accepted(id, payload)
                : new Outcome.Completed(id, payload);
    }
}
