package dev.ringzero.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.execute;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.job;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.runtimeService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.withVariables;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import dev.ringzero.agents.Schedules;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.test.Deployment;
import org.camunda.bpm.engine.test.junit5.ProcessEngineExtension;
import org.camunda.bpm.engine.test.mock.Mocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The schedule model on the in-memory engine with a moved clock: the timer is due at the instant
 * the cron and time zone give, across a daylight-saving change, and each fire starts one run.
 */
@ExtendWith(ProcessEngineExtension.class)
@Deployment(resources = "processes/agent-schedule.bpmn")
class AgentScheduleProcessTest {

    private static final ZoneId LOS_ANGELES = ZoneId.of("America/Los_Angeles");
    private static final String CRON = "30 2 * * *";

    private final List<Instant> fired = new ArrayList<>();
    private int firesLeft = 3;

    @BeforeEach
    void delegates() {
        ClockUtil.setCurrentTime(Date.from(Instant.parse("2026-03-07T20:00:00Z")));
        Mocks.register("scheduleNext", (JavaDelegate) execution -> {
            Date previous = (Date) execution.getVariable("nextFireAt");
            Instant after = previous == null ? ClockUtil.getCurrentTime().toInstant() : previous.toInstant();
            execution.setVariable("nextFireAt", firesLeft-- > 0 ? Date.from(Schedules.nextFire(CRON, LOS_ANGELES, after))
                    : null);
        });
        Mocks.register("scheduleFire", (JavaDelegate) execution -> fired.add(ClockUtil.getCurrentTime().toInstant()));
    }

    @AfterEach
    void reset() {
        Mocks.reset();
        ClockUtil.reset();
    }

    @Test
    void theTimerFiresAtTheCronInstantAcrossSpringForwardAndEachFireStartsOneRun() {
        ProcessInstance schedule = runtimeService().startProcessInstanceByKey("agent-schedule", "agent-1",
                withVariables("agentId", "agent-1"));

        List<Instant> dueDates = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            assertThat(schedule).isWaitingAt("Timer_NextFire");
            Instant due = job(schedule).getDuedate().toInstant();
            dueDates.add(due);
            ClockUtil.setCurrentTime(Date.from(due));
            execute(job(schedule));
        }

        assertThat(dueDates).containsExactly(Instant.parse("2026-03-08T10:30:00Z"), Instant.parse("2026-03-09T09:30:00Z"),
                Instant.parse("2026-03-10T09:30:00Z"));
        assertThat(fired).containsExactlyElementsOf(dueDates);
        assertThat(schedule).isEnded().hasPassed("EndEvent_Unscheduled");
    }
}
