package dev.ringzero.dispatch;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.StoredJson;
import dev.ringzero.gadgets.CommandSpec;
import dev.ringzero.gadgets.RegisteredCommands;
import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.CommandKind;
import dev.ringzero.kernel.DenyReason;
import dev.ringzero.kernel.Lease;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.Subject;
import dev.ringzero.kernel.Verdict;
import dev.ringzero.policy.Movers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Ring 0's only way to a device. Every command is decided by the kernel at the moment of
 * sending, recorded with its invocation id (the device's idempotency key), and published as
 * {@code link.invoke} once the caller's transaction commits; {@link AnswerLane} correlates its
 * {@code link.result}. An invocation is answered once: the first of result or deadline wins,
 * and an {@code unknown} is never re-sent under a new id.
 */
@Service
public class Dispatcher {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    /** Whether a command left for the device. */
    public sealed interface Dispatch permits Sent, NotSent {
    }

    public record Sent(String invocationId, Instant deadline) implements Dispatch {
    }

    public record NotSent(Outcome outcome, Verdict verdict) implements Dispatch {
    }

    private final PolicyKernel kernel;
    private final RegisteredCommands gadgets;
    private final InvokeLink link;
    private final Invocations invocations;
    private final AwaitedAnswers awaited;
    private final Movers movers;
    private final ObjectMapper json;
    private final Clock clock;

    Dispatcher(PolicyKernel kernel, RegisteredCommands gadgets, InvokeLink link, Invocations invocations,
            AwaitedAnswers awaited, Movers movers, ObjectMapper json, Clock clock) {
        this.kernel = kernel;
        this.gadgets = gadgets;
        this.link = link;
        this.invocations = invocations;
        this.awaited = awaited;
        this.movers = movers;
        this.json = json;
        this.clock = clock;
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
     * The refusal of {@code request}'s parameters if they do not fit the command as its gadget
     * registered it, for a caller that must know before it does anything else on the way to
     * sending (the direct path stops background sound first, and must not for a command it will
     * never send).
     */
    public Optional<Outcome> misfit(ActionRequest request) {
        return misfit(gadgets.command(request.gadgetId(), request.command()), json.valueToTree(request.params()))
                .map(Dispatcher::notSent);
    }

    private static Optional<Verdict.Deny> misfit(Optional<CommandSpec> spec, JsonNode params) {
        List<CommandSpec.ParamProblem> problems = spec.map(command -> command.problems(params, value -> false))
                .orElse(List.of());
        if (problems.isEmpty()) {
            return Optional.empty();
        }
        // every path checks the shape the gadget registered: a device never gets what it cannot read
        return Optional.of(new Verdict.Deny(DenyReason.INVALID_PARAMS, problems.stream()
                .map(CommandSpec.ParamProblem::message).collect(java.util.stream.Collectors.joining("; "))));
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
        Optional<CommandSpec> spec = gadgets.command(request.gadgetId(), request.command());
        JsonNode params = json.valueToTree(request.params());
        Optional<Verdict.Deny> misfit = misfit(spec, params);
        if (misfit.isPresent()) {
            return new NotSent(notSent(misfit.get()), misfit.get());
        }
        long timeoutMs = spec.map(CommandSpec::timeoutMs).orElse(CommandSpec.DEFAULT_TIMEOUT_MS);
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
            return recordAndPublish(request, params, origin, runId, invocationId, awaited, now, timeoutMs);
        } catch (RuntimeException | Error e) {
            movers.ended(invocationId, clock.instant());
            throw e;
        }
    }

    /** Records the invocation and publishes it (after the caller's transaction commits, if any). */
    private Sent recordAndPublish(ActionRequest request, JsonNode params, String origin, String runId,
            String invocationId, boolean awaited, Instant now, long timeoutMs) {
        Instant deadline = now.plusMillis(timeoutMs);
        invocations.insert(invocationId, request.subject().accountId(), request.gadgetId(), request.command(),
                params.toString(), origin, runId, now, deadline);
        byte[] bytes = InvokeEnvelope.encode(json, invocationId, request.command(), params, timeoutMs, deadline);
        if (awaited) {
            this.awaited.expect(invocationId);
        }
        Runnable leave = () -> {
            if (CommandKind.stopsMotion(request.command())) {
                movers.stopping(request.gadgetId(), clock.instant()); // a stop frees the gadget as it leaves
            }
            link.invoke(request.gadgetId(), bytes);
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
                        Dispatcher.this.awaited.forget(invocationId);
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
     * Publishes a recorded, unanswered invocation again, under its own id and with its original
     * deadline: a device that ran it answers from its stored result, one that never got it refuses
     * it as expired. The kernel is asked first (an unpaired or foreign gadget gets nothing, not
     * even a repeat). Returns whether it left.
     */
    public boolean replay(String invocationId, Subject subject, Priority priority) {
        Optional<Invocation> recorded = invocations.find(invocationId).filter(Invocation::unanswered);
        if (recorded.isEmpty()) {
            return false;
        }
        Invocation invocation = recorded.get();
        JsonNode params = StoredJson.tree(json, invocation.params());
        Verdict verdict = kernel.decide(new ActionRequest(subject, invocation.gadgetId(), invocation.command(),
                StoredJson.map(json, invocation.params()), priority, clock.instant()));
        if (!verdict.allowed()) {
            log.info("not replaying invocation {} to {} ({})", invocationId, invocation.gadgetId(), verdict.wire());
            return false;
        }
        log.info("re-publishing invocation {} to {} for its stored result", invocationId, invocation.gadgetId());
        // no mover lease: the repeat is of an invocation the device most likely ran already, which it
        // answers from its stored result without moving; refusing it for a busy gadget would turn a
        // known result into unknown, and a device that never got it refuses a second motion itself
        link.invoke(invocation.gadgetId(), InvokeEnvelope.encode(json, invocation.id(), invocation.command(), params,
                Duration.between(invocation.sentAt(), invocation.deadline()).toMillis(), invocation.deadline()));
        return true;
    }

    /**
     * Waits for the answer until the deadline; then the invocation is {@code unknown}. The
     * device's late answer is recorded but changes nothing.
     */
    public Outcome await(Sent sent) {
        long millis = Math.max(0, Duration.between(clock.instant(), sent.deadline()).toMillis());
        return awaited.await(sent.invocationId(), millis)
                .orElseGet(() -> expire(sent.invocationId()).orElseGet(() -> stored(sent.invocationId())));
    }

    /**
     * Marks an unanswered invocation unknown; empty if it was answered meanwhile. Listeners are not
     * told: whoever expires an invocation is the one that waited for it (a run's deadline, a
     * direct command's await).
     */
    public Optional<Outcome> expire(String invocationId) {
        boolean expired = invocations.expire(invocationId, clock.instant());
        awaited.forget(invocationId);
        // a move given up on keeps its mover's lease to its bound: the device may still be moving
        return expired ? Optional.of(new Outcome.Unknown(invocationId)) : Optional.empty();
    }

    public Outcome invokeAndWait(ActionRequest request, String origin) {
        Dispatch dispatch = sendAwaited(request, origin);
        return dispatch instanceof Sent sent ? await(sent) : ((NotSent) dispatch).outcome();
    }

    /** The recorded outcome of an invocation (still 'sent' reads as unknown). */
    public Outcome stored(String invocationId) {
        return invocations.stored(invocationId);
    }

    /** The invocation as recorded, if it was ever sent. */
    public Optional<Invocation> invocation(String invocationId) {
        return invocations.find(invocationId);
    }

    static Outcome notSent(Verdict verdict) {
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
