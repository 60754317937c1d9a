package dev.ringzero.firmware;

import dev.ringzero.firmware.ReceivedInvocation.Handling;
import java.time.Clock;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Turns a received invocation into at most one handler run and exactly one stored
 * result. Split into {@link #decide} and {@link #carryOut} so the board can log what
 * it decided before any answer leaves (a test that sees the result can then also
 * see the invocation).
 */
final class CommandDispatcher {

    private static final System.Logger LOG = System.getLogger(CommandDispatcher.class.getName());

    /** The decision for one delivery. */
    sealed interface Decision permits Run, Replay, Refuse {
        Handling handling();
    }

    record Run(CommandDef command) implements Decision {
        @Override
        public Handling handling() {
            return Handling.EXECUTED;
        }
    }

    /** outcome null: the first delivery is still running and will answer for both. */
    record Replay(CommandOutcome outcome) implements Decision {
        @Override
        public Handling handling() {
            return Handling.REPLAYED;
        }
    }

    record Refuse(CommandOutcome.Failed outcome) implements Decision {
        @Override
        public Handling handling() {
            return Handling.REFUSED;
        }
    }

    private final Map<String, CommandDef> commands = Collections.synchronizedMap(new LinkedHashMap<>());
    private final Map<String, CommandOutcome.Failed> faults = new ConcurrentHashMap<>();
    private final ResultStore store;
    private volatile Clock clock;

    CommandDispatcher(ResultStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    void define(CommandDef def) {
        commands.put(def.name(), def);
    }

    /** In definition order, for the registration. */
    Map<String, CommandDef> commands() {
        synchronized (commands) {
            return new LinkedHashMap<>(commands);
        }
    }

    void setClock(Clock clock) {
        this.clock = clock;
    }

    ResultStore store() {
        return store;
    }

    /** From now on, answer this command with this error instead of running it. */
    void injectFault(String command, String code, String message) {
        faults.put(command, CommandOutcome.error(code, message));
    }

    void clearFaults() {
        faults.clear();
    }

    /** Claims the id; a refusal is stored right away so a repeat gets the same answer. */
    Decision decide(InvokeRequest request) {
        ResultStore.Claim claim = store.claim(request.id());
        if (claim instanceof ResultStore.Stored stored) {
            return new Replay(stored.outcome());
        }
        if (claim instanceof ResultStore.InFlight) {
            return new Replay(null);
        }
        Optional<CommandOutcome.Failed> refusal = refusal(request);
        if (refusal.isPresent()) {
            store.complete(request.id(), refusal.get());
            return new Refuse(refusal.get());
        }
        return new Run(commands.get(request.command()));
    }

    private Optional<CommandOutcome.Failed> refusal(InvokeRequest request) {
        long now = clock.millis();
        if (request.deadline() != null && now > request.deadline()) {
            // acting late can be worse than not acting (a bark at 3 a.m. for an 8 p.m. rule)
            return Optional.of(CommandOutcome.error(CommandOutcome.EXPIRED,
                    "arrived " + (now - request.deadline()) + " ms after its deadline"));
        }
        if (request.command() == null) {
            return Optional.of(CommandOutcome.error(CommandOutcome.UNSUPPORTED, "invocation names no command"));
        }
        CommandDef def = commands.get(request.command());
        if (def == null) {
            return Optional.of(CommandOutcome.error(CommandOutcome.UNSUPPORTED,
                    "this board has no command '" + request.command() + "'"));
        }
        Optional<CommandOutcome.Failed> invalid = def.validate(request.params());
        if (invalid.isPresent()) {
            return invalid;
        }
        return Optional.ofNullable(faults.get(request.command()));
    }

    /** Answers through {@code answer} (now or when the handler's stage completes); never throws. */
    void carryOut(InvokeRequest request, Decision decision, Consumer<CommandOutcome> answer) {
        if (decision instanceof Replay replay) {
            if (replay.outcome() != null) {
                answer.accept(replay.outcome());
            }
        } else if (decision instanceof Refuse refuse) {
            answer.accept(refuse.outcome());
        } else if (decision instanceof Run run) {
            run(request, run.command()).whenComplete((outcome, failure) -> {
                CommandOutcome result = failure == null && outcome != null ? outcome : handlerFailed(failure);
                store.complete(request.id(), result);
                answer.accept(result);
            });
        }
    }

    /** decide + carryOut, for callers that do not log in between. */
    Handling dispatch(InvokeRequest request, Consumer<CommandOutcome> answer) {
        Decision decision = decide(request);
        carryOut(request, decision, answer);
        return decision.handling();
    }

    private static CompletionStage<CommandOutcome> run(InvokeRequest request, CommandDef def) {
        try {
            CompletionStage<CommandOutcome> stage = def.handler().handle(request);
            return stage != null ? stage : CompletableFuture.completedFuture(null);
        } catch (Exception | LinkageError e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static CommandOutcome handlerFailed(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (cause != null) {
            LOG.log(System.Logger.Level.WARNING, "command handler failed", cause);
        }
        return CommandOutcome.error(CommandOutcome.HANDLER_FAILED,
                cause == null ? "handler returned no result" : cause.getClass().getSimpleName() + ": " + cause.getMessage());
    }
}
