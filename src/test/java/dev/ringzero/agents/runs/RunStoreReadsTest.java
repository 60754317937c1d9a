package dev.ringzero.agents.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import dev.ringzero.support.PlatformTest;
import dev.ringzero.support.TwoWakers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A run's writes change what its transaction already read of it instead of reading it again: at
 * every step of a run's life the transaction's view is exactly what the database holds.
 */
class RunStoreReadsTest extends PlatformTest {

    @Autowired
    RunStore runs;
    @Autowired
    PlatformTransactionManager transactionManager;

    // microseconds: what the database keeps of an instant
    private final Instant created = Instant.parse("2026-11-29T10:00:00.123456Z");
    private final Instant started = created.plusMillis(3);
    private final Instant ended = created.plusMillis(9);

    @Test
    void anActionEndedAtAFinerInstantThanTheColumnKeepsIsSeenAsTheDatabaseHoldsIt() {
        String runId = UUID.randomUUID().toString();
        AtomicReference<List<RunStore.Action>> seenActions = new AtomicReference<>();
        new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
            runs.insert(new RunStore.Run(runId, UUID.randomUUID().toString(), "owner-1", 2, "gadget.event", "{}",
                    "event-1", true, RunStatus.RUNNING, null, created, started, null), true);
            runs.insertActions(runId, List.of(new RunStore.NewAction("desk-1", "display.show_text", "{}")), started);
            runs.actions(runId);
            runs.actionEnded(runId, 0, "allow", "completed", null, null, ended.plusNanos(789));
            seenActions.set(runs.actions(runId));
        });

        assertThat(seenActions.get()).isEqualTo(runs.actions(runId));
        assertThat(seenActions.get().get(0).endedAt()).isEqualTo(ended);
    }

    @Test
    void aRunsWritesLeaveItsTransactionSeeingWhatTheDatabaseHolds() {
        String runId = UUID.randomUUID().toString();
        AtomicReference<RunStore.Run> seenRun = new AtomicReference<>();
        AtomicReference<List<RunStore.Action>> seenActions = new AtomicReference<>();
        new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
            runs.insert(new RunStore.Run(runId, UUID.randomUUID().toString(), "owner-1", 2, "gadget.event", "{}", "event-1", true,
                    RunStatus.QUEUED, null, created, null, null), true);
            assertThat(runs.transition(runId, RunStatus.QUEUED, RunStatus.RUNNING, null, started)).isTrue();
            assertThat(runs.find(runId).orElseThrow().endedAt()).as("a queued run's turn does not end it").isNull();
            runs.insertActions(runId, List.of(new RunStore.NewAction("desk-1", "display.show_text", "{\"text\":\"a\"}"),
                    new RunStore.NewAction("desk-1", "speaker.say", "{\"text\":\"b\"}")), started);
            runs.actionSent(runId, 0, "inv-0", null, false, "execution-1");
            runs.actionEnded(runId, 0, "allow", "completed", null, "{\"ok\":true}", ended);
            runs.actionEnded(runId, 0, "allow", "unknown", null, null, ended.plusSeconds(1)); // settled already
            runs.actionEnded(runId, 1, "deny", "denied", "quiet_hours", null, ended);
            assertThat(runs.transition(runId, RunStatus.QUEUED, RunStatus.RUNNING, null, ended)).as("not queued any more").isFalse();
            assertThat(runs.end(runId, RunStatus.PARTIALLY_FAILED, "one denied", ended)).isTrue();
            assertThat(runs.end(runId, RunStatus.FAILED, "again", ended)).as("ended already").isFalse();
            seenRun.set(runs.find(runId).orElseThrow());
            seenActions.set(runs.actions(runId));
        });

        // outside a transaction every read goes to the database
        assertThat(seenRun.get()).isEqualTo(runs.find(runId).orElseThrow());
        assertThat(seenActions.get()).isEqualTo(runs.actions(runId));
        assertThat(seenRun.get().status()).isEqualTo(RunStatus.PARTIALLY_FAILED);
        assertThat(seenRun.get().startedAt()).isEqualTo(started);
        assertThat(seenActions.get()).extracting(RunStore.Action::outcome).containsExactly("completed", "denied");
        assertThat(seenActions.get().get(0).invocationId()).isEqualTo("inv-0");
    }

    @Test
    void settlingADetachedCommandLeavesItsTransactionSeeingWhatTheDatabaseHolds() {
        for (int actions = 1; actions <= 2; actions++) {
            String runId = UUID.randomUUID().toString();
            new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
                runs.insert(new RunStore.Run(runId, UUID.randomUUID().toString(), "owner-1", 1, "gadget.event", "{}",
                        "event-1", true, RunStatus.RUNNING, null, created, created, null), true);
            });
            int last = actions - 1;
            List<RunStore.NewAction> planned = java.util.stream.IntStream.range(0, actions).mapToObj(n ->
                    new RunStore.NewAction("desk-1", "speaker.say", "{\"text\":\"" + n + "\"}")).toList();
            new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
                runs.insertActions(runId, planned, started);
                for (int n = 0; n < last; n++) {
                    runs.actionSent(runId, n, "inv-" + n, null, false, "execution-1");
                    runs.actionEnded(runId, n, "allow", "completed", null, null, started);
                }
                runs.actionSent(runId, last, "inv-" + last, ended.plusSeconds(10), true, null); // detached
            });
            AtomicReference<RunStore.Run> seenRun = new AtomicReference<>();
            AtomicReference<List<RunStore.Action>> seenActions = new AtomicReference<>();
            new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
                assertThat(runs.unawaitedEnded(runId, "inv-" + last, "completed", null, "{\"ok\":true}", ended))
                        .hasValueSatisfying(action -> assertThat(action.index()).isEqualTo(last));
                seenRun.set(runs.find(runId).orElseThrow());
                seenActions.set(runs.actions(runId));
                assertThat(runs.unawaitedEnded(runId, "inv-" + last, "unknown", null, null, ended))
                        .as("settled already").isEmpty();
            });

            assertThat(seenRun.get()).isEqualTo(runs.find(runId).orElseThrow());
            assertThat(seenActions.get()).as("%d action(s)", actions).isEqualTo(runs.actions(runId)).hasSize(actions);
            assertThat(seenActions.get().get(last).outcome()).isEqualTo("completed");
        }
    }

    /**
     * Every wait of a run is one execution: of two wakers that both found a command awaited (its
     * answer and its deadline, or two nodes' sweeps), the second waits for the first's lock on the
     * action and then finds it settled, instead of waking the wait for the run's next command.
     */
    @Test
    void aSecondWakerWaitsForTheFirstAndFindsTheCommandSettled() throws Exception {
        String runId = UUID.randomUUID().toString();
        TransactionTemplate transaction = new TransactionTemplate(transactionManager);
        transaction.executeWithoutResult(status -> {
            runs.insert(new RunStore.Run(runId, UUID.randomUUID().toString(), "owner-1", 2, "invoke", "{}", null,
                    false, RunStatus.RUNNING, null, created, started, null), true);
            runs.insertActions(runId, List.of(new RunStore.NewAction("desk-1", "imu.read", "{}")), started);
            runs.actionSent(runId, 0, "inv-0", ended, false, "execution-1");
        });
        TwoWakers.Found<java.util.Optional<String>> found = TwoWakers.race(transaction,
                () -> runs.waitFor(runId, "inv-0"),
                () -> runs.actionEnded(runId, 0, "allow", "completed", null, null, ended)); // the woken step

        assertThat(found.first()).contains("execution-1");
        assertThat(found.second()).as("settled by then: nothing to wake").isEmpty();
    }
}
