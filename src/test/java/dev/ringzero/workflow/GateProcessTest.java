package dev.ringzero.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.complete;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.execute;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.job;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.jobQuery;
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
    /** What the mocked executor reports: true = a device command in flight. */
    private boolean sentToDevice;

    @BeforeEach
    void registerDelegates() {
        Mocks.register("gateDecision", (TaskListener) task -> calls.add("decided:" + task.getVariable("decision")));
        Mocks.register("gateBeginExecution", (JavaDelegate) execution -> calls.add("executing"));
        Mocks.register("gateExecution", (JavaDelegate) execution -> {
            calls.add("executed:" + execution.getVariable("gateId"));
            execution.setVariable("awaitingAnswer", sentToDevice);
            execution.setVariable("answerTimeout", sentToDevice ? "PT16S" : "PT0S");
        });
        Mocks.register("gateSettle", (JavaDelegate) execution -> calls.add("reconciled"));
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
    void approvalCommitsExecutingInItsOwnJobBeforeTheExecutorRuns() {
        ProcessInstance gate = fileGate();

        complete(task(gate), withVariables("decision", "approve", "note", "ok"));

        assertThat(gate).isWaitingAt("Task_BeginExecution");
        assertThat(calls).containsExactly("decided:approve");
        execute(job(gate));
        // the executor is behind a second job: "executing" is committed before anything is sent
        assertThat(gate).isWaitingAt("Task_ExecuteGate");
        assertThat(calls).containsExactly("decided:approve", "executing");
        execute(job(gate));
        assertThat(gate).isEnded().hasPassed("EndEvent_Executed");
        assertThat(calls).containsExactly("decided:approve", "executing", "executed:gate-1");
    }

    @Test
    void aDeviceCommandWaitsForTheAnswerAndEndsWhenItArrives() {
        sentToDevice = true;
        ProcessInstance gate = fileGate();
        complete(task(gate), withVariables("decision", "approve"));
        execute(job(gate));
        execute(job(gate));

        assertThat(gate).isWaitingAt("Gateway_Answer");
        runtimeService().createMessageCorrelation("gateAnswered").processInstanceBusinessKey("gate-1").correlate();

        assertThat(gate).isEnded().hasPassed("EndEvent_Answered").hasNotPassed("Task_SettleGate");
        assertThat(jobQuery().processInstanceId(gate.getId()).count()).isZero();
    }

    @Test
    void noAnswerByTheTimeoutIsReconciledNotResent() {
        sentToDevice = true;
        ProcessInstance gate = fileGate();
        complete(task(gate), withVariables("decision", "approve"));
        execute(job(gate));
        execute(job(gate));

        long seconds = (job(gate).getDuedate().getTime() - System.currentTimeMillis()) / 1000;
        execute(job(gate));

        assertThat(seconds).isBetween(14L, 16L);
        assertThat(gate).isEnded().hasPassed("Task_SettleGate", "EndEvent_Reconciled");
        assertThat(calls).containsExactly("decided:approve", "executing", "executed:gate-1", "reconciled");
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
    void aFencedGateEndsCleanlyAndCanNoLongerBeDecided() {
        ProcessInstance gate = fileGate();

        runtimeService().createMessageCorrelation("gateFenced").processInstanceId(gate.getId()).correlate();

        assertThat(gate).isEnded().hasPassed("EndEvent_Fenced").hasNotPassed("Task_ExecuteGate");
        assertThat(taskService().createTaskQuery().processInstanceId(gate.getId()).count()).isZero();
        assertThat(calls).isEmpty();
    }

    @Test
    void theExpiryTimerIsDueAfterTheConfiguredDuration() {
        ProcessInstance gate = fileGate();

        long days = (job(gate).getDuedate().getTime() - System.currentTimeMillis()) / 86_400_000L;

        assertThat(days).isBetween(6L, 7L);
    }
}
