package dev.ringzero.agents.llm;

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
 * A session's writes change what its transaction already read of its turns and tool calls instead
 * of reading them again: after every step of a turn the transaction's view is exactly what the
 * database holds.
 */
class SessionStoreReadsTest extends PlatformTest {

    @Autowired
    SessionStore store;
    @Autowired
    PlatformTransactionManager transactionManager;

    // nanoseconds: the database keeps microseconds of an instant
    private final Instant asked = Instant.parse("2026-12-06T10:00:00.123456789Z");

    @Test
    void aSessionsWritesLeaveItsTransactionSeeingWhatTheDatabaseHolds() {
        String runId = UUID.randomUUID().toString();
        AtomicReference<List<SessionStore.Turn>> seenTurns = new AtomicReference<>();
        AtomicReference<List<SessionStore.Call>> seenCalls = new AtomicReference<>();
        new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
            assertThat(store.turns(runId)).isEmpty(); // read: from here on the transaction keeps its copy
            assertThat(store.calls(runId)).isEmpty();
            store.asked(runId, 1, "owner-1", asked, asked.plusSeconds(62), "execution-1");
            assertThat(store.replied(runId, 1, new ModelReply.Answered("Saying hi.", List.of(
                    new ToolCall("call-" + "x".repeat(200), "speaker__say", "{\"text\":\"hi\"}"),
                    new ToolCall("call-2", "state__get", "{}")), 120, 30), 2_040, asked.plusMillis(2_040))).isTrue();
            store.becameAction(runId, 1, 0, "speaker.say", 0);
            store.deciding(runId, 1, 1, "state.get", "submitting");
            store.handled(runId, 1, 1, "state.get", "allow", "r".repeat(600), "{\"status\":\"ok\"}");
            assertThat(store.ready(runId, 1)).isTrue();
            assertThat(store.ready(runId, 1)).as("ready already").isFalse();
            store.asked(runId, 2, "owner-1", asked.plusSeconds(3), asked.plusSeconds(65), "execution-1");
            assertThat(store.failed(runId, 2, "model_error", "m".repeat(600), asked.plusSeconds(4))).isTrue();
            assertThat(store.failed(runId, 2, "model_timeout", "again", asked.plusSeconds(5))).as("failed already")
                    .isFalse();
            seenTurns.set(store.turns(runId));
            seenCalls.set(store.calls(runId));
        });

        // outside a transaction every read goes to the database
        assertThat(seenTurns.get()).isEqualTo(store.turns(runId));
        assertThat(seenCalls.get()).isEqualTo(store.calls(runId));
        assertThat(seenTurns.get()).extracting(SessionStore.Turn::status)
                .containsExactly(SessionStore.TurnStatus.READY, SessionStore.TurnStatus.FAILED);
        assertThat(seenCalls.get()).extracting(SessionStore.Call::verdict).containsExactly("action", "allow");
    }

    /**
     * Every turn of a run waits in one execution: a late waker of turn 1 (a second node's sweep, a
     * resumed turn) waits for the lock of the waker that is moving the run on, and then finds turn
     * 2 asked, instead of waking turn 2's wait.
     */
    @Test
    void aLateWakerOfATurnWaitsForTheFirstAndFindsTheNextTurnAsked() throws Exception {
        String runId = UUID.randomUUID().toString();
        TransactionTemplate transaction = new TransactionTemplate(transactionManager);
        transaction.executeWithoutResult(status -> {
            store.asked(runId, 1, "owner-1", asked, asked.plusSeconds(62), "execution-1");
            assertThat(store.replied(runId, 1, new ModelReply.Answered("Done.", List.of(), 10, 2), 2_000,
                    asked.plusSeconds(2))).isTrue();
            assertThat(store.ready(runId, 1)).isTrue();
        });
        java.util.Optional<String> before = transaction.execute(status -> store.waitOfLatest(runId, 1));
        assertThat(before).as("turn 1 is the latest: its wait").contains("execution-1");

        // the woken run asks its next turn, in the same execution
        TwoWakers.Found<java.util.Optional<String>> found = TwoWakers.race(transaction,
                () -> store.waitOfLatest(runId, 1),
                () -> store.asked(runId, 2, "owner-1", asked.plusSeconds(3), asked.plusSeconds(65), "execution-1"));

        assertThat(found.first()).contains("execution-1");
        assertThat(found.second()).as("turn 2 is asked: turn 1 has no wait").isEmpty();
        java.util.Optional<String> next = transaction.execute(status -> store.waitOfLatest(runId, 2));
        assertThat(next).contains("execution-1");
    }
}
