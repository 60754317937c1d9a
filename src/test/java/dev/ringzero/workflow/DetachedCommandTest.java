package dev.ringzero.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.ringzero.support.Agents;
import dev.ringzero.support.OwnerWithDeskBotTest;
import org.awaitility.Awaitility;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The detached last command end to end (issue 25, on by default): a rules run's only command
 * ends its process instance as it leaves; the board's answer, arriving after, settles the run's
 * record, and a board that never answers has its command swept {@code unknown} at the deadline.
 */
class DetachedCommandTest extends OwnerWithDeskBotTest {

    @Autowired
    RuntimeService runtime;
    @Autowired
    HistoryService history;
    @Autowired
    org.camunda.bpm.engine.ManagementService management;
    @Autowired
    org.springframework.jdbc.core.simple.JdbcClient jdbc;

    @Test
    void theAnswerSettlesARunWhoseInstanceEndedAsItsCommandLeft() {
        String agent = Agents.create(alice, Agents.imuRead(bot.gadgetId(), "imu", "parallel"));
        AtomicReference<String> runId = new AtomicReference<>();
        AtomicBoolean instanceGoneBeforeAnswer = new AtomicBoolean();
        // the board answers once this listener returns: it holds the answer until the run's
        // instance is gone, so the answer can only be settled from the record
        bot.onInvocation(invocation -> instanceGoneBeforeAnswer.set(awaitQuietly(() -> runId.get() != null
                && instances(runId.get()) == 0)));

        runId.set(Agents.runNow(alice, agent));

        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> "succeeded".equals(Agents.run(alice, runId.get()).path("status").asText()));
        assertThat(instanceGoneBeforeAnswer).as("the instance ended before the board answered").isTrue();
        assertThat(Agents.run(alice, runId.get()).at("/actions/0/outcome").asText()).isEqualTo("completed");
        HistoricProcessInstance instance = history.createHistoricProcessInstanceQuery()
                .processDefinitionKey(ProcessIds.AGENT_RUN).processInstanceBusinessKey(runId.get()).singleResult();
        assertThat(instance.getEndTime()).as("the run's instance is kept in history").isNotNull();
        assertThat(instance.getEndActivityId()).isEqualTo("EndEvent_CommandLeft");
        assertThat(bot.invocations()).hasSize(1);
    }

    @Test
    void aCommandNobodyAnswersIsSweptUnknownAtItsDeadline() {
        String agent = Agents.create(alice, Agents.imuRead(bot.gadgetId(), "imu", "parallel"));
        bot.setSilent(true); // imu.read's deadline is 2 s

        String runId = Agents.runNow(alice, agent);

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> bot.invocations().size() == 1
                && instances(runId) == 0);
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> "failed".equals(Agents.run(alice, runId).path("status").asText()));
        assertThat(Agents.run(alice, runId).at("/actions/0/outcome").asText()).isEqualTo("unknown");
        assertThat(bot.invocations()).as("an unknown command is never sent again").hasSize(1);
    }

    @Test
    void aRunWithALaterStepStillWaitsInTheEngine() {
        String agent = Agents.create(alice, Agents.imuReadTwice(bot.gadgetId(), "imu", "parallel"));
        bot.setSilent(true);

        String runId = Agents.runNow(alice, agent);

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> bot.invocations().size() == 1);
        assertThat(instances(runId)).as("the first command's answer is awaited by the process").isEqualTo(1);
        bot.setSilent(false);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> instances(runId) == 0);
    }

    @Test
    void anAwaitedCommandNobodyAnswersIsSweptUnknownWithNoTimerJobAndTheRunGoesOn() {
        String agent = Agents.create(alice, Agents.imuReadTwice(bot.gadgetId(), "imu", "parallel"));
        bot.setSilent(true); // imu.read's deadline is 2 s

        String runId = Agents.runNow(alice, agent);

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> bot.invocations().size() == 1);
        String instance = runtime.createProcessInstanceQuery().processInstanceBusinessKey(runId).singleResult().getId();
        assertThat(runtime.getActiveActivityIds(instance)).containsExactly("Task_AwaitLinkResult");
        assertThat(jdbc.sql("select wait_execution from rz_run_action where run_id = ? and idx = 0").param(runId)
                .query(String.class).single()).as("the record names the waiting execution").isEqualTo(instance);
        assertThat(management.createJobQuery().processInstanceId(instance).count())
                .as("the deadline is the record's, swept by the node: no timer job").isZero();
        assertThat(jdbc.sql("select awaited_by from rz_run_action where run_id = ? and idx = 0").param(runId)
                .query(java.sql.Timestamp.class).single()).isNotNull();
        // the sweep wakes the first command's wait: unknown, never sent again; the second is sent
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> bot.invocations().size() == 2);
        bot.setSilent(false);
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> !"running".equals(Agents.run(alice, runId).path("status").asText()));
        assertThat(Agents.run(alice, runId).at("/actions/0/outcome").asText()).isEqualTo("unknown");
        assertThat(jdbc.sql("select count(*) from rz_run_action where run_id = ? and awaited_by is not null")
                .param(runId).query(Integer.class).single()).as("settled actions are no longer watched").isZero();
        assertThat(bot.invocations()).hasSize(2);
    }

    private long instances(String runId) {
        return runtime.createProcessInstanceQuery().processDefinitionKey(ProcessIds.AGENT_RUN)
                .processInstanceBusinessKey(runId).count();
    }

    private static boolean awaitQuietly(java.util.concurrent.Callable<Boolean> condition) {
        try {
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(condition);
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return false;
        }
    }
}
