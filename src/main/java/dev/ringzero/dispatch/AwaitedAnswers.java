package dev.ringzero.dispatch;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.springframework.stereotype.Component;

/**
 * Answers a caller on this node waits for (the owner's direct command path). Runs and gates are
 * woken through listeners and keep nothing here: a node that stops loses no run's answer.
 *
 * <p>On a node of a cluster the broker gives an answer to any one node, which records it: a
 * caller here then also reads the record every {@link #LOOK_EVERY_MILLIS} while it waits.
 */
@Component
class AwaitedAnswers {

    static final long LOOK_EVERY_MILLIS = 100;

    private final Map<String, CompletableFuture<Outcome>> waiting = new ConcurrentHashMap<>();
    private final boolean clustered;
    private final Invocations invocations;

    AwaitedAnswers(@org.springframework.beans.factory.annotation.Value("${ringzero.cluster.enabled:false}")
            boolean clustered, Invocations invocations) {
        this.clustered = clustered;
        this.invocations = invocations;
    }

    void expect(String invocationId) {
        waiting.put(invocationId, new CompletableFuture<>());
    }

    /** Hands the outcome to the caller waiting for it, if any. */
    void complete(String invocationId, Outcome outcome) {
        CompletableFuture<Outcome> future = waiting.remove(invocationId);
        if (future != null) {
            future.complete(outcome);
        }
    }

    void forget(String invocationId) {
        waiting.remove(invocationId);
    }

    /** The answer if it comes within {@code millis}; empty otherwise (or if nobody expected it). */
    Optional<Outcome> await(String invocationId, long millis) {
        CompletableFuture<Outcome> future = waiting.get(invocationId);
        try {
            if (future == null) {
                return Optional.empty();
            }
            if (!clustered) {
                return Optional.of(future.get(millis, TimeUnit.MILLISECONDS));
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            while (true) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return Optional.empty();
                }
                try {
                    return Optional.of(future.get(Math.min(left, LOOK_EVERY_MILLIS), TimeUnit.MILLISECONDS));
                } catch (TimeoutException notHere) {
                    Optional<Outcome> elsewhere = invocations.answered(invocationId);
                    if (elsewhere.isPresent()) {
                        return elsewhere; // another node took the answer and recorded it
                    }
                }
            }
        } catch (TimeoutException e) {
            return Optional.empty(); // the deadline passed without an answer
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            waiting.remove(invocationId);
        }
    }
}
