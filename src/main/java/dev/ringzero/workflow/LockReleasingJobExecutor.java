package dev.ringzero.workflow;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.camunda.bpm.engine.impl.ProcessEngineImpl;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.interceptor.CommandExecutor;
import org.camunda.bpm.engine.impl.jobexecutor.ExecuteJobsRunnable;
import org.camunda.bpm.engine.impl.jobexecutor.JobFailureCollector;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.camunda.bpm.engine.spring.components.jobexecutor.SpringJobExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's job executor, but a job whose failure the engine could not record does not stay
 * locked for the lock time (5 minutes). When a job fails, the engine records the failure in a
 * transaction of its own, which also gives up the job's lock; with the database away (PostgreSQL
 * restarting) that transaction fails too, and the job kept the lock its acquisition had taken:
 * nothing ran it until the lock expired. A queued run's turn is such a job, so its agent's queue
 * stood still for 5 minutes, past every run's deadline (the fault suite's PostgreSQL restart).
 *
 * <p>So after any failed job this executor gives up the job's lock once the database answers
 * again (tried every {@link #RETRY_EVERY_MILLIS}), on one condition that makes it safe: the lock
 * is still this node's and was taken before the failed execution began (it expires no later than
 * that moment plus the lock time). A failure the engine did record left no lock (nothing to do);
 * a job taken again since, and perhaps running right now, has a later lock, which stays.
 */
class LockReleasingJobExecutor extends SpringJobExecutor {

    private static final Logger log = LoggerFactory.getLogger(LockReleasingJobExecutor.class);
    static final long RETRY_EVERY_MILLIS = 1_000;

    private volatile ScheduledExecutorService releases;

    @Override
    public Runnable getExecuteJobsRunnable(List<String> jobIds, ProcessEngineImpl processEngine) {
        return new ExecuteJobsRunnable(jobIds, processEngine) {
            @Override
            protected void executeJob(String jobId, CommandExecutor commandExecutor, JobFailureCollector failures) {
                // every lock this job holds now was taken before this moment, so expires by then + lock time
                long lockedNoLaterThan = ClockUtil.getCurrentTime().getTime() + getLockTimeInMillis();
                try {
                    super.executeJob(jobId, commandExecutor, failures);
                } catch (RuntimeException | Error e) {
                    releaseLater(jobId, lockedNoLaterThan, processEngine.getProcessEngineConfiguration());
                    throw e;
                }
            }
        };
    }

    private void releaseLater(String jobId, long lockedNoLaterThan, ProcessEngineConfigurationImpl engine) {
        ScheduledExecutorService scheduler = releases;
        if (scheduler == null || scheduler.isShutdown()) {
            return; // stopping: the next start frees what this node had locked (JobLocksOfThisNode)
        }
        try {
            scheduler.schedule(() -> release(jobId, lockedNoLaterThan, engine), RETRY_EVERY_MILLIS,
                    TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            // as above
        }
    }

    /**
     * One statement, so the condition and the release cannot be told apart by a job acquisition in
     * between; as {@link JobLocksOfThisNode} frees locks, with the revision moved on as the engine's
     * own lock changes move it.
     */
    private void release(String jobId, long lockedNoLaterThan, ProcessEngineConfigurationImpl engine) {
        String table = (engine.getDatabaseTablePrefix() == null ? "" : engine.getDatabaseTablePrefix()) + "ACT_RU_JOB";
        int released;
        try (Connection connection = engine.getDataSource().getConnection();
                PreparedStatement releasing = connection.prepareStatement("UPDATE " + table + " SET LOCK_OWNER_ = NULL, "
                        + "LOCK_EXP_TIME_ = NULL, REV_ = REV_ + 1 WHERE ID_ = ? AND LOCK_OWNER_ = ? "
                        + "AND LOCK_EXP_TIME_ <= ?")) {
            releasing.setString(1, jobId);
            releasing.setString(2, getLockOwner());
            releasing.setTimestamp(3, new Timestamp(lockedNoLaterThan));
            released = releasing.executeUpdate();
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        } catch (SQLException | RuntimeException databaseStillAway) {
            releaseLater(jobId, lockedNoLaterThan, engine);
            return;
        }
        if (released > 0) {
            log.info("job {} failed and its failure could not be recorded (the database was away); its lock is "
                    + "given up, so it runs again now rather than when the lock expires", jobId);
        }
    }

    @Override
    protected void startExecutingJobs() {
        releases = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "job-lock-release");
            thread.setDaemon(true);
            return thread;
        });
        super.startExecutingJobs();
    }

    @Override
    protected void stopExecutingJobs() {
        super.stopExecutingJobs();
        ScheduledExecutorService scheduler = releases;
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
