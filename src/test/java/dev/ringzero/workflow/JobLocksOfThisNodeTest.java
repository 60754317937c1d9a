package dev.ringzero.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.StandaloneInMemProcessEngineConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JobLocksOfThisNodeTest {

    private final JobLocksOfThisNode underTest = new JobLocksOfThisNode("7");
    private ProcessEngine engine;

    @AfterEach
    void close() {
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void aStartFreesTheJobsItsPreviousLifeHadLockedAndLeavesOtherNodesLocksAlone() throws Exception {
        StandaloneInMemProcessEngineConfiguration configuration = new StandaloneInMemProcessEngineConfiguration();
        configuration.setJdbcUrl("jdbc:h2:mem:job-locks-" + java.util.UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        configuration.setProcessEnginePlugins(List.of(underTest));
        engine = configuration.buildProcessEngine();
        assertThat(configuration.getJobExecutor().getLockOwner()).isEqualTo("ringzero-node-7");
        try (Connection c = configuration.getDataSource().getConnection(); Statement s = c.createStatement()) {
            // what a killed node leaves: jobs it had taken, locked for minutes
            s.execute("INSERT INTO ACT_RU_JOB (ID_, REV_, TYPE_, LOCK_OWNER_, LOCK_EXP_TIME_, RETRIES_, SUSPENSION_STATE_,"
                    + " PRIORITY_) VALUES ('mine', 1, 'message', 'ringzero-node-7', DATEADD('MINUTE', 5, NOW()), 3, 1, 0),"
                    + " ('theirs', 1, 'message', 'ringzero-node-8', DATEADD('MINUTE', 5, NOW()), 3, 1, 0)");
        }

        underTest.postProcessEngineBuild(engine); // as at the next start, before the job executor runs

        try (Connection c = configuration.getDataSource().getConnection(); Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT ID_, LOCK_OWNER_, LOCK_EXP_TIME_ FROM ACT_RU_JOB ORDER BY ID_")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo("mine");
            assertThat(rows.getString(2)).isNull();
            assertThat(rows.getTimestamp(3)).isNull();
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(2)).isEqualTo("ringzero-node-8");
        }
    }
}
