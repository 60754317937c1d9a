package dev.ringzero.gates;

import java.sql.DriverManager;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.Refusal;
import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.SimpleTransactionStatus;

/**
 * The desk's parts on their own, with no Spring context and no engine: the real store, audit and
 * journal on an in-memory H2 that ran the changelog, and fakes for the engine, the executors, the
 * continuations and the transactions. Each fixture has an owner and agent of its own, so tests
 * sharing the database never see each other's rows.
 */
final class DeskFixture {

    static final Instant NOW = Instant.parse("2026-03-01T09:00:00Z");
    static final String INTENT = "inbox.post";

    private static JdbcClient database;

    final JdbcClient jdbc = database();
    final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    final ObjectMapper json = new ObjectMapper();
    final GateStore store = new GateStore(jdbc, "1");
    final Audit audit = new Audit(jdbc, clock);
    final Journal journal = new Journal(jdbc, clock);
    final FakeEngine engine = new FakeEngine();
    final FakeExecutor executor = new FakeExecutor(INTENT);
    final IntentExecutors executors = new IntentExecutors(List.of(executor));
    final List<Gate> resolved = new ArrayList<>();
    final GateResolved resolutions = resolved::add;
    final FakeTransactions transactions = new FakeTransactions();
    final String owner = "owner-" + UUID.randomUUID();
    final String agent = UUID.randomUUID().toString();
    final String run = UUID.randomUUID().toString();

    private static synchronized JdbcClient database() {
        if (database == null) {
            String url = "jdbc:h2:mem:gate-desk;DB_CLOSE_DELAY=-1";
            try {
                Database schema = DatabaseFactory.getInstance()
                        .findCorrectDatabaseImplementation(new JdbcConnection(DriverManager.getConnection(url, "sa", "")));
                try (Liquibase liquibase = new Liquibase("db/changelog/db.changelog-master.yaml",
                        new ClassLoaderResourceAccessor(), schema)) {
                    liquibase.update("");
                }
            } catch (Exception e) {
                throw new IllegalStateException("the changelog does not run on H2", e);
            }
            database = JdbcClient.create(new SimpleDriverDataSource(new org.h2.Driver(), url, "sa", ""));
        }
        return database;
    }

    GateService.Filing filing(String payload, String ruleId) {
        return new GateService.Filing(owner, agent, run, INTENT, null, tree(payload), "to say hello", ruleId);
    }

    JsonNode tree(String text) {
        try {
            return text == null ? null : json.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** A gate of this fixture's agent stored in {@code state}, as the desk would have left it. */
    Gate stored(GateState state) {
        return stored(state, false);
    }

    Gate stored(GateState state, boolean auto) {
        String id = UUID.randomUUID().toString();
        Gate.Proposal proposal = new Gate.Proposal(owner, agent, run, INTENT, "desk-1", "{\"text\":\"hi\"}",
                "0".repeat(64), "to say hello");
        Gate gate = new Gate(id, state, proposal, Gate.Decision.byLadder(null, auto), Gate.Timeline.filed(NOW),
                null, null);
        store.insert(gate);
        store.attachProcess(id, "pi-" + id);
        return store.find(id).orElseThrow();
    }

    Gate reread(Gate gate) {
        return store.find(gate.id()).orElseThrow();
    }

    List<String> dispositions(Gate gate) {
        return audit.ofGate(gate.id()).stream().map(Audit.Entry::disposition).toList();
    }

    List<Journal.Entry> timeline() {
        return journal.of(agent, 0, 100);
    }

    /** The gate process, remembered instead of run. */
    static final class FakeEngine implements GateEngine {

        final List<Gate> started = new ArrayList<>();
        final List<Map<String, Object>> forms = new ArrayList<>();
        final List<String> fenced = new ArrayList<>();
        final List<String> reviews = new ArrayList<>();
        /** What happens inside the engine when the review is completed (the decision recorded, say). */
        Consumer<Gate> onReview = gate -> { };
        /** False: the review was gone when completed (someone else decided first). */
        boolean reviewStillOpen = true;

        @Override
        public String start(Gate gate, Map<String, Object> readable) {
            started.add(gate);
            forms.add(readable);
            return "pi-" + gate.id();
        }

        @Override
        public boolean completeReview(Gate gate, String userId, boolean approve, String note) {
            reviews.add(userId + (approve ? " approves " : " denies ") + gate.id());
            onReview.accept(gate);
            return reviewStillOpen;
        }

        @Override
        public void asPlatform(Runnable work) {
            work.run();
        }

        @Override
        public void fence(Gate gate) {
            fenced.add(gate.id());
        }

        @Override
        public void answered(String gateId) {
        }

        @Override
        public boolean carriesOn(Gate gate) {
            return false;
        }
    }

    /** An executor that answers what the test queued and writes down what it was asked. */
    static final class FakeExecutor implements IntentExecutor {

        final String intent;
        final Deque<Execution> executions = new ArrayDeque<>();
        final Deque<Execution> traces = new ArrayDeque<>();
        final List<String> calls = new ArrayList<>();
        Consumer<Gate> beforeExecuting = gate -> { };

        FakeExecutor(String intent) {
            this.intent = intent;
        }

        @Override
        public boolean handles(String intent) {
            return this.intent.equals(intent);
        }

        @Override
        public void validate(String ownerId, String intent, JsonNode payload) {
            if (payload.has("invalid")) {
                throw Refusal.invalid("invalid-payload", "the executor refuses it");
            }
        }

        @Override
        public Execution execute(Gate gate) {
            calls.add("execute");
            beforeExecuting.accept(gate);
            return executions.isEmpty() ? new Execution.Done("{\"outcome\":\"posted\"}") : executions.poll();
        }

        @Override
        public Execution reconcile(Gate gate) {
            calls.add("reconcile");
            return traces.isEmpty() ? new Execution.NotStarted() : traces.poll();
        }

        @Override
        public void awaitOutcome(Gate gate, Duration within) {
            calls.add("await " + within);
        }
    }

    /** Transactions that only count: the database under the fixture commits every statement itself. */
    static final class FakeTransactions implements PlatformTransactionManager {

        int commits;
        int rollbacks;

        @Override
        public TransactionStatus getTransaction(TransactionDefinition definition) {
            return new SimpleTransactionStatus();
        }

        @Override
        public void commit(TransactionStatus status) {
            commits++;
        }

        @Override
        public void rollback(TransactionStatus status) {
            rollbacks++;
        }
    }
}
