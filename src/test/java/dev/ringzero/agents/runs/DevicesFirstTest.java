package dev.ringzero.agents.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class DevicesFirstTest {

    /** A backlog of device events that drains when the test says so. */
    private static final class Backlog implements EventBacklog {
        final CountDownLatch drained = new CountDownLatch(1);

        @Override
        public boolean awaitQuiet(Duration max) throws InterruptedException {
            return drained.await(max.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    @Test
    void workWaitsUntilTheDeviceEventsAreRouted() throws Exception {
        Backlog backlog = new Backlog();
        CompletableFuture<String> done = CompletableFuture.supplyAsync(
                () -> new DevicesFirst(backlog).after(Duration.ofSeconds(30), () -> "started"));

        Thread.sleep(200);
        assertThat(done).as("still yielding to the backlog").isNotDone();
        backlog.drained.countDown();

        assertThat(done.get(10, TimeUnit.SECONDS)).isEqualTo("started");
    }

    @Test
    void workStartsWhenItsYieldHasPassedWhateverTheBacklog() {
        assertThat(new DevicesFirst(new Backlog()).after(Duration.ofMillis(50), () -> "started")).isEqualTo("started");
    }

    @Test
    void workHandedOverIsDoneOnAThreadOfTheGatesOwnOnceTheDeviceEventsAreRouted() throws Exception {
        Backlog backlog = new Backlog();
        CompletableFuture<String> doneOn = new CompletableFuture<>();

        new DevicesFirst(backlog).later(Duration.ofSeconds(30), () -> doneOn.complete(Thread.currentThread().getName()));

        Thread.sleep(200);
        assertThat(doneOn).as("still yielding to the backlog").isNotDone();
        backlog.drained.countDown();
        assertThat(doneOn.get(10, TimeUnit.SECONDS)).startsWith("devices-first-");
    }

    @Test
    void workHandedOverIsDoneWhenItsYieldHasPassedWhateverTheBacklog() throws Exception {
        CountDownLatch done = new CountDownLatch(1);

        new DevicesFirst(new Backlog()).later(Duration.ofMillis(50), done::countDown);

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void atMostHalfTheCoresDoSuchWorkAtOnce() throws Exception {
        int slots = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        DevicesFirst first = new DevicesFirst(EventBacklog.NONE);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<CompletableFuture<Void>> works = new ArrayList<>();
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newCachedThreadPool();
        for (int i = 0; i < slots + 2; i++) {
            works.add(CompletableFuture.runAsync(() -> first.after(Duration.ofSeconds(30), () -> {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                running.decrementAndGet();
                return null;
            }), threads));
        }

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> running.get() == slots);
        Thread.sleep(200);
        assertThat(running.get()).as("the others wait for a slot").isEqualTo(slots);
        release.countDown();

        CompletableFuture.allOf(works.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        assertThat(most.get()).isEqualTo(slots);
        threads.shutdown();
    }
}
