package dev.ringzero.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.StandaloneProcessEngineConfiguration;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * A job that fails while the database goes away: the engine cannot record the failure, which would
 * also have given up the job's lock, and the job would wait for the lock to expire (5 minutes).
 */
class LockReleasingJobExecutorTest {

    private final JdbcDataSource database = new JdbcDataSource();
    private final AtomicBoolean databaseAway = new AtomicBoolean();
    private final AtomicReference<Thread> jobThread = new AtomicReference<>();
    /** Connections refused to the thread that ran the job: the engine recording its failure. */
    private final AtomicInteger refusedToTheJob = new AtomicInteger();
    private final AtomicInteger runs = new AtomicInteger();
    private final ThreadPoolTaskExecutor threads = new ThreadPoolTaskExecutor();
    private ProcessEngine engine;

    /** The job's work: the first time, the database goes away while it runs, and it fails. */
    public class Flaky {
        public void run() {
            if (runs.incrementAndGet() == 1) {
                jobThread.set(Thread.currentThread());
                databaseAway.set(true);
                throw new IllegalStateException("the database went away");
            }
        }
    }

    @AfterEach
    void close() {
        if (engine != null) {
            engine.close();
        }
        threads.shutdown();
    }

    @Test
    void aJobWhoseFailureTheDatabaseCouldNotTakeRunsAgainOnceItIsBackNotWhenItsLockExpires() throws Exception {
        LockReleasingJobExecutor underTest = new LockReleasingJobExecutor();
        threads.setCorePoolSize(2);
        threads.initialize();
        underTest.setTaskExecutor(threads);
        underTest.setLockOwner("ringzero-node-test");
        underTest.setWaitTimeInMillis(50);
        underTest.setMaxWait(200);
        engine = engine(underTest);
        engine.getRepositoryService().createDeployment().addModelInstance("flaky.bpmn", Bpmn
                .createExecutableProcess("Process_Flaky").camundaHistoryTimeToLive(1).startEvent()
                .serviceTask("Task_Flaky").camundaAsyncBefore().camundaExpression("${flaky.run()}").endEvent().done())
                .deploy();

        String instance = engine.getRuntimeService().startProcessInstanceByKey("Process_Flaky").getId();
        awaitUntil(() -> refusedToTheJob.get() > 0, 10_000);

        assertThat(lockOwnerOfTheJob()).as("the engine could not give up the lock").isEqualTo("ringzero-node-test");
        databaseAway.set(false);
        awaitUntil(() -> runs.get() == 2 && engine.getRuntimeService().createProcessInstanceQuery()
                .processInstanceId(instance).count() == 0, 15_000);

        assertThat(runs).as("run again within seconds, not after the 5 minutes of its lock").hasValue(2);
    }

    private ProcessEngine engine(LockReleasingJobExecutor jobExecutor) {
        database.setURL("jdbc:h2:mem:job-release-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        StandaloneProcessEngineConfiguration configuration = new StandaloneProcessEngineConfiguration();
        configuration.setDataSource(new DelegatingDataSource(database) {
            @Override
            public Connection getConnection() throws SQLException {
                if (databaseAway.get()) {
                    if (Thread.currentThread() == jobThread.get()) {
                        refusedToTheJob.incrementAndGet();
                    }
                    throw new SQLException("Connection refused", "08001");
                }
                return super.getConnection();
            }
        });
        configuration.setDatabaseSchemaUpdate("create-drop");
        configuration.setJobExecutor(jobExecutor);
        configuration.setJobExecutorActivate(true);
        configuration.setBeans(Map.of("flaky", new Flaky()));
        return configuration.buildProcessEngine();
    }

    /** Read past the engine, which the test has told the database is away. */
    private String lockOwnerOfTheJob() throws SQLException {
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT LOCK_OWNER_ FROM ACT_RU_JOB")) {
            assertThat(rows.next()).isTrue();
            return rows.getString(1);
        }
    }

    private static void awaitUntil(java.util.function.BooleanSupplier condition, long millis)
            throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("within " + millis + " ms").isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
