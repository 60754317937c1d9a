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
 */
@Component
class AwaitedAnswers {

    private final Map<String, CompletableFuture<Outcome>> waiting = new ConcurrentHashMap<>();

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
            return future == null ? Optional.empty() : Optional.of(future.get(millis, TimeUnit.MILLISECONDS));
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
