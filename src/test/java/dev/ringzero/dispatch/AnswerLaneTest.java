package dev.ringzero.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import javax.sql.DataSource;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.Batches;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** The answer lane alone: first answer wins, the run is woken, the broker hears back only once it is recorded. */
class AnswerLaneTest {

    private final DispatchFixture fixture = new DispatchFixture();
    private final Dispatcher dispatcher = fixture.dispatcher();
    private final List<String> woken = new ArrayList<>();
    private final List<String> told = new ArrayList<>();
    private final InTransactions batches = new InTransactions();
    private final AnswerLane underTest = new AnswerLane(fixture.invocations, fixture.awaited, fixture.movers,
            List.of((invocationId, runId, outcome) -> told.add(invocationId + ":" + outcome.status())),
            List.of((invocationId, runId, outcome, atOnce) -> woken.add(wake(runId, outcome, atOnce))), batches, 8,
            fixture.clock, scheduler(new ArrayList<>()), Runnable::run);

    @Test
    void theFirstAnswerSettlesTheInvocationWakesItsRunAndIsAcknowledgedAfterItsCommit() {
        String id = sentByRun("run-1");
        AtomicInteger acknowledgedAtCommit = new AtomicInteger(-1);
        batches.beforeCommit = () -> acknowledgedAtCommit.set(0);

        underTest.onResult(DispatchFixture.DESK, answer(id, true, "{\"status\":\"done\"}"),
                () -> acknowledgedAtCommit.compareAndSet(0, 1));

        assertThat(acknowledgedAtCommit).as("acknowledged after the commit, not before").hasValue(1);
        assertThat(woken).containsExactly("run-1:completed");
        assertThat(told).containsExactly(id + ":completed");
        assertThat(dispatcher.stored(id)).isInstanceOf(Outcome.Completed.class);
    }

    @Test
    void aSecondAnswerChangesNothingAndWakesNothing() {
        String id = sentByRun("run-1");
        underTest.onResult(DispatchFixture.DESK, answer(id, true, "{}"), () -> { });

        underTest.onResult(DispatchFixture.DESK, answer(id, false, null), () -> { });

        assertThat(dispatcher.stored(id)).isInstanceOf(Outcome.Completed.class);
        assertThat(woken).hasSize(1);
    }

    @Test
    void anotherGadgetsAnswerIsIgnoredButAcknowledged() {
        String id = sentByRun("run-1");
        AtomicInteger acknowledged = new AtomicInteger();

        underTest.onResult(DispatchFixture.ROVER, answer(id, true, "{}"), acknowledged::incrementAndGet);

        assertThat(acknowledged).hasValue(1);
        assertThat(woken).isEmpty();
        assertThat(fixture.recorded(id)).hasValueSatisfying(invocation -> assertThat(invocation.unanswered()).isTrue());
    }

    @Test
    void anAnswerWhoseStepFailsEvenAloneIsStillRecordedAcknowledgedAndTold() {
        String id = sentByRun("run-1");
        batches.failEveryItem = true;
        AtomicInteger acknowledged = new AtomicInteger();

        underTest.onResult(DispatchFixture.DESK, answer(id, false, null), acknowledged::incrementAndGet);

        assertThat(acknowledged).hasValue(1);
        assertThat(dispatcher.stored(id)).isInstanceOf(Outcome.Failed.class);
        assertThat(told).containsExactly(id + ":failed");
        // recorded alone, outside the lane's transaction: nothing could wake the run after a commit
        assertThat(woken).containsExactly("run-1:failed at once");
    }

    @Test
    void theRehearsalsAnswerWakesItsRunAtOnceInItsOwnTransaction() {
        String id = sentByRun("run-1");

        underTest.settleHere(DispatchFixture.DESK, answer(id, true, "{}"));

        assertThat(woken).containsExactly("run-1:completed at once");
    }

    /** A wake as the lane asked for it: in its transaction, or at once whatever the run ({@code RunWake}). */
    private static String wake(String runId, Outcome outcome, boolean atOnce) {
        return runId + ":" + outcome.status() + (atOnce ? " at once" : "");
    }

    @Test
    void anAnswerThatArrivesWhileTheDatabaseIsAwayIsHeldUnacknowledgedAndRecordedOnceItIsBack() {
        String id = sentByRun("run-1");
        AtomicBoolean databaseAway = new AtomicBoolean(true);
        DataSource refusing = new DelegatingDataSource(fixture.dataSource) {
            @Override
            public Connection getConnection() throws SQLException {
                if (databaseAway.get()) {
                    throw new SQLException("Connection refused", "08001");
                }
                return super.getConnection();
            }
        };
        List<Runnable> later = new ArrayList<>();
        AnswerLane underTest = new AnswerLane(new Invocations(JdbcClient.create(refusing), fixture.json,
                dev.ringzero.SqlDialect.H2), fixture.awaited, fixture.movers, List.of((invocationId, runId, outcome) ->
                told.add(invocationId + ":" + outcome.status())), List.of((invocationId, runId, outcome, atOnce) ->
                woken.add(wake(runId, outcome, atOnce))), batches, 8, fixture.clock, scheduler(later), Runnable::run);
        AtomicInteger acknowledged = new AtomicInteger();
        batches.failEveryItem = true; // the lane's transaction cannot begin either

        underTest.onResult(DispatchFixture.DESK, answer(id, true, "{\"status\":\"done\"}"),
                acknowledged::incrementAndGet);
        later.remove(0).run(); // a second try, the database still away

        assertThat(acknowledged).as("not acknowledged while it is not recorded").hasValue(0);
        assertThat(fixture.recorded(id)).hasValueSatisfying(invocation -> assertThat(invocation.unanswered()).isTrue());
        assertThat(later).as("tried again later").hasSize(1);

        databaseAway.set(false);
        batches.failEveryItem = false;
        later.remove(0).run();

        assertThat(acknowledged).hasValue(1);
        assertThat(dispatcher.stored(id)).isInstanceOf(Outcome.Completed.class);
        assertThat(woken).containsExactly("run-1:completed");
        assertThat(told).containsExactly(id + ":completed");
        assertThat(later).isEmpty();
    }

    @Test
    void aCallerAwaitingTheAnswerOnThisNodeGetsItBeforeTheDeadline() throws Exception {
        Dispatcher.Sent sent = (Dispatcher.Sent) dispatcher.sendAwaited(fixture.byOwner(DispatchFixture.DESK,
                "speaker.say", Map.of()), "direct");
        var awaiting = java.util.concurrent.CompletableFuture.supplyAsync(() -> dispatcher.await(sent));

        underTest.onResult(DispatchFixture.DESK, answer(sent.invocationId(), true, "{\"status\":\"fetching\"}"),
                () -> { });

        assertThat(awaiting.get(3, java.util.concurrent.TimeUnit.SECONDS)).isInstanceOf(Outcome.Accepted.class);
    }

    @Test
    void startedButUnfinishedStatusesAreAcceptedAndAFailureKeepsItsCode() {
        assertThat(AnswerLane.outcomeOf(answer("i", true, "{\"status\":\"fetching\"}")))
                .isInstanceOf(Outcome.Accepted.class);
        assertThat(AnswerLane.outcomeOf(answer("i", true, "{\"status\":\"done\"}")))
                .isInstanceOf(Outcome.Completed.class);
        assertThat(AnswerLane.outcomeOf(answer("i", false, null)))
                .isEqualTo(new Outcome.Failed("i", "busy", "try later"));
    }

    private String sentByRun(String runId) {
        return ((Dispatcher.Sent) dispatcher.send(fixture.byOwner(DispatchFixture.DESK, "speaker.say", Map.of()),
                "run", runId)).invocationId();
    }

    private JsonNode answer(String id, boolean ok, String payload) {
        String body = ok ? "{\"method\":\"link.result\",\"id\":\"" + id + "\",\"ok\":true,\"payload\":" + payload + "}"
                : "{\"method\":\"link.result\",\"id\":\"" + id + "\",\"ok\":false,"
                        + "\"error\":{\"code\":\"busy\",\"message\":\"try later\"}}";
        try {
            return fixture.json.readTree(body);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A scheduler that keeps what it is asked to run later, for the test to run when it says. */
    private static TaskScheduler scheduler(List<Runnable> later) {
        return (TaskScheduler) Proxy.newProxyInstance(TaskScheduler.class.getClassLoader(),
                new Class<?>[] {TaskScheduler.class}, (proxy, method, args) -> {
                    if (method.getName().equals("schedule") && args[1] instanceof Instant) {
                        later.add((Runnable) args[0]);
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    /** Batches as the engine runs them, without an engine: synchronizations fire as a commit would. */
    private static final class InTransactions implements Batches {
        Runnable beforeCommit = () -> { };
        boolean failEveryItem;

        @Override
        public <T> void run(List<T> items, Consumer<T> work, BiConsumer<T, RuntimeException> failed) {
            for (T item : items) {
                if (failEveryItem) {
                    failed.accept(item, new IllegalStateException("the step failed"));
                    continue;
                }
                TransactionSynchronizationManager.initSynchronization();
                List<TransactionSynchronization> synchronizations;
                try {
                    work.accept(item);
                } finally {
                    synchronizations = TransactionSynchronizationManager.getSynchronizations();
                    TransactionSynchronizationManager.clearSynchronization();
                }
                beforeCommit.run();
                synchronizations.forEach(TransactionSynchronization::afterCommit);
            }
        }
    }
}
