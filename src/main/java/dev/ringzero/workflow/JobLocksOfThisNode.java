package dev.ringzero.workflow;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The job executor locks a job for 5 minutes when it takes it. A node killed with jobs in hand
 * left them locked by an owner that no longer exists, and nothing ran them until the locks
 * expired: a queued run's turn (an async continuation) then came 5 minutes late, past every
 * deadline, and its agent's later runs waited behind it (the fault suite, issue 22). So the job
 * executor's lock owner is this node's name, not a random id per start, and a start first frees
 * the jobs its previous life had locked: nothing of that life is still running them.
 * A node's name ({@code ringzero.mqtt.node-id}) is unique in a cluster already (it is the
 * platform's MQTT client id); two live nodes under one name would take each other's jobs.
 */
@Component
class JobLocksOfThisNode extends AbstractProcessEnginePlugin {

    private static final Logger log = LoggerFactory.getLogger(JobLocksOfThisNode.class);

    private final String owner;
    private ProcessEngineConfigurationImpl configuration;

    JobLocksOfThisNode(@Value("${ringzero.mqtt.node-id:1}") String nodeId) {
        this.owner = "ringzero-node-" + nodeId;
    }

    @Override
    public void postInit(ProcessEngineConfigurationImpl configuration) {
        this.configuration = configuration;
        if (configuration.getJobExecutor() != null) {
            configuration.getJobExecutor().setLockOwner(owner);
        }
    }

    /** Before the job executor starts (it starts once the engine's deployments are done). */
    @Override
    public void postProcessEngineBuild(ProcessEngine engine) {
        String table = (configuration.getDatabaseTablePrefix() == null ? "" : configuration.getDatabaseTablePrefix())
                + "ACT_RU_JOB";
        try (Connection connection = configuration.getDataSource().getConnection();
                PreparedStatement freeing = connection.prepareStatement("UPDATE " + table
                        + " SET LOCK_OWNER_ = NULL, LOCK_EXP_TIME_ = NULL WHERE LOCK_OWNER_ = ?")) {
            freeing.setString(1, owner);
            int freed = freeing.executeUpdate();
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
            if (freed > 0) {
                log.info("{} job(s) this node had taken before it stopped are free to run again", freed);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("freeing the jobs this node's previous run had locked", e);
        }
    }
}
