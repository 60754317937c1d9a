package dev.ringzero.agents.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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

        new DevicesFirst(backlog).later(Duration.ofSeconds(30), Duration.ofSeconds(30), () -> doneOn.complete(Thread.currentThread().getName()));

        Thread.sleep(200);
        assertThat(doneOn).as("still yielding to the backlog").isNotDone();
        backlog.drained.countDown();
        assertThat(doneOn.get(10, TimeUnit.SECONDS)).startsWith("devices-first-");
    }

    @Test
    void workHandedOverIsDoneWhenItsYieldHasPassedWhateverTheBacklog() throws Exception {
        CountDownLatch done = new CountDownLatch(1);

        new DevicesFirst(new Backlog()).later(Duration.ofMillis(50), Duration.ofSeconds(30), done::countDown);

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void atMostHalfTheCoresDoSuchWorkAtOnce() throws Exception {
        int slots = slots();
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

    @Test
    void aSlotTakenLaterIsHeldUntilClosedAndWorkDoneInItDoesNotWaitForAnother() throws Exception {
        int slots = slots();
        DevicesFirst first = new DevicesFirst(EventBacklog.NONE);
        CountDownLatch close = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(slots);
        java.util.concurrent.ExecutorService holders = java.util.concurrent.Executors.newFixedThreadPool(slots);
        List<CompletableFuture<String>> inTheSlot = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            inTheSlot.add(CompletableFuture.supplyAsync(() -> {
                try (DevicesFirst.Slot slot = first.slot(Duration.ofSeconds(30), Duration.ofSeconds(30))) {
                    slot.take();
                    slot.take(); // a second take holds nothing more
                    // work after the devices on the thread holding the slot runs in it, at once
                    String done = first.after(Duration.ofSeconds(30), () -> "in the slot");
                    holding.countDown();
                    close.await();
                    return done;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return "interrupted";
                }
            }, holders));
        }
        assertThat(holding.await(10, TimeUnit.SECONDS)).as("every holder did its work in its slot").isTrue();
        java.util.concurrent.ExecutorService other = java.util.concurrent.Executors.newSingleThreadExecutor();
        CompletableFuture<String> waiting = CompletableFuture.supplyAsync(
                () -> first.after(Duration.ofSeconds(30), () -> "after a close"), other);

        Thread.sleep(200);
        assertThat(waiting).as("every slot is held").isNotDone();
        close.countDown();

        assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo("after a close");
        for (CompletableFuture<String> done : inTheSlot) {
            assertThat(done.get(10, TimeUnit.SECONDS)).isEqualTo("in the slot");
        }
        holders.shutdown();
        other.shutdown();
    }

    @Test
    void aSlotNeverTakenHoldsNothing() throws Exception {
        int slots = slots();
        DevicesFirst first = new DevicesFirst(EventBacklog.NONE);
        for (int i = 0; i < slots + 1; i++) {
            first.slot(Duration.ofSeconds(30), Duration.ofSeconds(30)).close();
        }

        assertThat(CompletableFuture.supplyAsync(() -> first.after(Duration.ofSeconds(30), () -> "started"))
                .get(10, TimeUnit.SECONDS)).isEqualTo("started");
    }

    @Test
    void workWithPatienceWaitsForASlotPastItsYieldAndIsCountedAsTakingIt() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        DevicesFirst first = new DevicesFirst(EventBacklog.NONE, meters);
        CountDownLatch close = new CountDownLatch(1);
        List<CompletableFuture<Void>> holders = holdEverySlot(first, close);
        java.util.concurrent.ExecutorService other = java.util.concurrent.Executors.newSingleThreadExecutor();
        CompletableFuture<String> waiting = CompletableFuture.supplyAsync(
                () -> first.after(Duration.ofMillis(50), Duration.ofSeconds(30), () -> "in a slot"), other);

        Thread.sleep(300);
        assertThat(waiting).as("its yield passed, its patience did not: it waits for the slot").isNotDone();
        close.countDown();

        assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo("in a slot");
        CompletableFuture.allOf(holders.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        assertThat(meters.timer("ringzero.devices_first.wait", "slot", "missed").count()).isZero();
        assertThat(meters.timer("ringzero.devices_first.wait", "slot", "taken").count()).isEqualTo(slots() + 1);
        other.shutdown();
    }

    @Test
    void workWhosePatiencePassedGoesOnWithoutASlotAndIsCountedAsMissingIt() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        DevicesFirst first = new DevicesFirst(EventBacklog.NONE, meters);
        CountDownLatch close = new CountDownLatch(1);
        List<CompletableFuture<Void>> holders = holdEverySlot(first, close);

        assertThat(first.after(Duration.ofMillis(50), Duration.ofMillis(100), () -> "beside")).isEqualTo("beside");
        CompletableFuture<String> handedOver = new CompletableFuture<>();
        first.later(Duration.ofMillis(50), Duration.ofMillis(100), () -> handedOver.complete("beside too"));
        assertThat(handedOver.get(10, TimeUnit.SECONDS)).isEqualTo("beside too");

        assertThat(meters.timer("ringzero.devices_first.wait", "slot", "missed").count()).isEqualTo(2);
        close.countDown();
        CompletableFuture.allOf(holders.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    }

    private static int slots() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }

    /** Every slot taken by a thread of its own and held until {@code close}. */
    private static List<CompletableFuture<Void>> holdEverySlot(DevicesFirst first, CountDownLatch close)
            throws InterruptedException {
        CountDownLatch holding = new CountDownLatch(slots());
        List<CompletableFuture<Void>> holders = new ArrayList<>();
        for (int i = 0; i < slots(); i++) {
            holders.add(CompletableFuture.runAsync(() -> {
                try (DevicesFirst.Slot slot = first.slot(Duration.ofSeconds(30), Duration.ofSeconds(30))) {
                    slot.take();
                    holding.countDown();
                    close.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, work -> {
                Thread thread = new Thread(work, "holder");
                thread.setDaemon(true);
                thread.start();
            }));
        }
        assertThat(holding.await(10, TimeUnit.SECONDS)).as("every slot is held").isTrue();
        return holders;
    }
}
