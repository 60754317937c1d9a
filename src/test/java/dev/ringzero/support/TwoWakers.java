package dev.ringzero.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.springframework.transaction.support.TransactionTemplate;

/**
 * Two wakers of one wait, each in a transaction of its own: the first finds the wait and holds its
 * transaction open until the second has tried too, then moves the run on ({@code thenMoveOn}) and
 * commits. What each found, the second having had to wait for the first's lock (checked).
 */
public final class TwoWakers {

    /** What the first and the second waker found. */
    public record Found<T>(T first, T second) {
    }

    private TwoWakers() {
    }

    public static <T> Found<T> race(TransactionTemplate transaction, Supplier<T> find, Runnable thenMoveOn)
            throws Exception {
        CountDownLatch found = new CountDownLatch(1);
        CountDownLatch moveOn = new CountDownLatch(1);
        CompletableFuture<T> first = CompletableFuture.supplyAsync(() -> transaction.execute(status -> {
            T wait = find.get();
            found.countDown();
            try {
                moveOn.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thenMoveOn.run();
            return wait;
        }));
        assertThat(found.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<T> second = CompletableFuture.supplyAsync(() -> transaction.execute(status -> find.get()));
        Thread.sleep(500);
        assertThat(second).as("the second waker waits for the first's lock").isNotDone();
        moveOn.countDown();
        return new Found<>(first.get(10, TimeUnit.SECONDS), second.get(10, TimeUnit.SECONDS));
    }
}
