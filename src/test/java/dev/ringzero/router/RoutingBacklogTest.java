package dev.ringzero.router;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class RoutingBacklogTest {

    private final RoutingBacklog backlog = new RoutingBacklog();

    @Test
    void withNoEventWaitingItIsQuietAtOnce() throws InterruptedException {
        assertThat(backlog.awaitQuiet(Duration.ZERO)).isTrue();
        backlog.queued();
        backlog.done(1);
        assertThat(backlog.awaitQuiet(Duration.ZERO)).isTrue();
    }

    @Test
    void aWaitEndsWhenTheLastWaitingEventIsRouted() throws Exception {
        backlog.queued();
        backlog.queued();
        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return backlog.awaitQuiet(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        backlog.done(1);
        Thread.sleep(100);
        assertThat(waiter).as("one event still waits").isNotDone();

        backlog.done(1);

        assertThat(waiter.get(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aWaitIsBoundedWhateverTheBacklog() throws InterruptedException {
        backlog.queued();

        assertThat(backlog.awaitQuiet(Duration.ofMillis(200))).as("it returns, the event still waiting").isFalse();
    }
}
