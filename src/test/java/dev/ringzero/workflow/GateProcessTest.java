package dev.ringzero.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.complete;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.execute;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.job;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.runtimeService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.task;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.taskService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.withVariables;

import java.util.ArrayList;
import java.util.List;

import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.test.Deployment;
import org.camunda.bpm.engine.test.junit5.ProcessEngineExtension;
import org.camunda.bpm.engine.test.mock.Mocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The gate model on the in-memory engine: every path, with recording delegates. */
@ExtendWith(ProcessEngineExtension.class)
@Deployment(resources = {"processes/gate.bpmn", "forms/gate-review.form"})
class GateProcessTest {

    private final List<String> calls = new ArrayList<>();

    @BeforeEach
    void registerDelegates() {
        Mocks.register("gateDecision", (TaskListener) task -> calls.add("decided:" + task.getVariable("decision")));
        Mocks.register("gateExecution", (JavaDelegate) execution -> calls.add("executed:" + execution.getVariable("gateId")));
        Mocks.register("gateExpiry", (JavaDelegate) execution -> calls.add("expired:" + execution.getVariable("gateId")));
    }

    @AfterEach
    void reset() {
        Mocks.reset();
    }

    private ProcessInstance fileGate() {
        return runtimeService().startProcessInstanceByKey("gate", "gate-1",
                withVariables("gateId", "gate-1", "ownerId", "alice", "expiresAfter", "P7D"));
    }

    @Test
    void theOwnerIsTheOnlyCandidateOfTheReviewTaskWithTheReviewForm() {
        ProcessInstance gate = fileGate();

        assertThat(gate).isWaitingAt("Task_ReviewGate");
        assertThat(task(gate)).hasCandidateUser("alice").isNotAssigned();
        assertThat(taskService().createTaskQuery().initializeFormKeys().singleResult().getCamundaFormRef().getKey())
                .isEqualTo("gate-review");
    }

    @Test
    void anApprovedGateIsExecutedAsynchronouslyOnce() {
        ProcessInstance gate = fileGate();

        complete(task(gate), withVariables("decision", "approve", "note", "ok"));

        assertThat(gate).isWaitingAt("Task_ExecuteGate");
        assertThat(calls).containsExactly("decided:approve");
        execute(job(gate));
        assertThat(gate).isEnded().hasPassed("EndEvent_Executed");
        assertThat(calls).containsExactly("decided:approve", "executed:gate-1");
    }

    @Test
    void aDeniedGateEndsWithoutExecution() {
        ProcessInstance gate = fileGate();

        complete(task(gate), withVariables("decision", "deny"));

        assertThat(gate).isEnded().hasPassed("EndEvent_Denied").hasNotPassed("Task_ExecuteGate");
        assertThat(calls).containsExactly("decided:deny");
    }

    @Test
    void anUnansweredGateExpiresWhenItsTimerFires() {
        ProcessInstance gate = fileGate();

        execute(job(gate));

        assertThat(gate).isEnded().hasPassed("EndEvent_Expired").hasNotPassed("Task_ExecuteGate");
        assertThat(calls).containsExactly("expired:gate-1");
    }

    @Test
    void theExpiryTimerIsDueAfterTheConfiguredDuration() {
        ProcessInstance gate = fileGate();

        long days = (job(gate).getDuedate().getTime() - System.currentTimeMillis()) / 86_400_000L;

        assertThat(days).isBetween(6L, 7L);
    }
}
