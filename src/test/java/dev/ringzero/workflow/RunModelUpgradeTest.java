package dev.ringzero.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import dev.ringzero.firmware.DeskBot;
import dev.ringzero.support.Agents;
import dev.ringzero.support.Api;
import dev.ringzero.support.Boards;
import dev.ringzero.support.PlatformTest;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/** After an upgrade replaced agent-run, runs still waiting in the older model end instead of sticking. */
class RunModelUpgradeTest extends PlatformTest {

    @LocalServerPort
    int port;
    @Autowired
    RunLauncher underTest;
    @Autowired
    RepositoryService repository;
    @Autowired
    RuntimeService runtime;

    @Test
    void aRunWaitingInAReplacedModelEndsFailedModelReplaced() throws IOException {
        Api alice = Api.at(port).newOwner("alice");
        String deploymentId = null;
        try (Boards boards = new Boards()) {
            DeskBot bot = boards.deskBot(alice);
            String agent = Agents.create(alice, Agents.imuReadTwice(bot.gadgetId(), "imu", "parallel"));
            bot.setSilent(true); // the run waits for its first answer, in the model deployed at start
            String runId = Agents.runNow(alice, agent);
            assertThat(Agents.run(alice, runId).path("status").asText()).isEqualTo("running");

            // the platform restarts with a changed agent-run: a new version of the model
            deploymentId = repository.createDeployment().name("upgrade").addString("agent-run.bpmn", changedModel())
                    .deploy().getId();
            assertThat(underTest.retireRunsOfOlderModels()).contains(runId);

            assertThat(runtime.createProcessInstanceQuery().processInstanceBusinessKey(runId).count()).isZero();
            assertThat(Agents.run(alice, runId).path("status").asText()).isEqualTo("failed");
            assertThat(Agents.run(alice, runId).path("reason").asText()).isEqualTo("model_replaced");
        } finally {
            if (deploymentId != null) {
                repository.deleteDeployment(deploymentId, true);
            }
            underTest.retireRunsOfOlderModels(); // back to the model of this build for the tests that follow
        }
    }

    private static String changedModel() throws IOException {
        try (InputStream model = RunModelUpgradeTest.class.getResourceAsStream("/processes/agent-run.bpmn")) {
            // deployed without duplicate filtering: the same text becomes a new version all the same
            return new String(model.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
