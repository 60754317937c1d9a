package dev.ringzero.firmware;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Makes a repeated invocation id execute at most once (the contract's idempotency
 * rule). The platform redelivers when a result was lost, so the board must answer
 * again without acting again. Bounded: a real board has little memory, and a retry
 * comes long before a thousand newer invocations.
 */
final class ResultStore {

    static final int DEFAULT_CAPACITY = 1_000;

    /** What the caller must do with an invocation id. */
    sealed interface Claim permits Execute, InFlight, Stored {
    }

    /** First time this id is seen: run it, then {@link #complete}. */
    record Execute() implements Claim {
    }

    /** Seen, still running: its result will be published when it ends. */
    record InFlight() implements Claim {
    }

    /** Seen and finished: answer this again. */
    record Stored(CommandOutcome outcome) implements Claim {
    }

    private final int capacity;
    // insertion order gives FIFO eviction; a null value marks an execution still running
    private final LinkedHashMap<String, CommandOutcome> results;

    ResultStore(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        this.capacity = capacity;
        this.results = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, CommandOutcome> eldest) {
                return size() > ResultStore.this.capacity;
            }
        };
    }

    /** Atomically decides whether this delivery runs: check-then-act would let two deliveries both run. */
    synchronized Claim claim(String invocationId) {
        if (results.containsKey(invocationId)) {
            CommandOutcome stored = results.get(invocationId);
            return stored == null ? new InFlight() : new Stored(stored);
        }
        results.put(invocationId, null);
        return new Execute();
    }

    synchronized void complete(String invocationId, CommandOutcome outcome) {
        results.put(invocationId, outcome);
    }

    synchronized Optional<CommandOutcome> stored(String invocationId) {
        return Optional.ofNullable(results.get(invocationId));
    }

    synchronized int size() {
        return results.size();
    }
}
