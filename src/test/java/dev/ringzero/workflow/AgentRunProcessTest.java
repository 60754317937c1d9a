package dev.ringzero.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.execute;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.job;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.processEngine;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.runtimeService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.managementService;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.ringzero.agents.runs.AgentRuns;
import dev.ringzero.agents.runs.RunRequest;
import dev.ringzero.agents.runs.RunStatus;
import dev.ringzero.dispatch.Outcome;
import dev.ringzero.support.CountedTransactions;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.test.Deployment;
import org.camunda.bpm.engine.test.junit5.ProcessEngineExtension;
import org.camunda.bpm.engine.test.mock.Mocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every path of {@code agent-run} on the in-memory engine, with the real delegates and a scripted
 * {@link AgentRuns}: which step the steering values lead to, what each wait waits for, and which
 * timer ends it.
 */
@ExtendWith(ProcessEngineExtension.class)
@Deployment(resources = "processes/agent-run.bpmn")
class AgentRunProcessTest {

    private static final String RUN = "run-1";
    private final AgentRuns runs = mock(AgentRuns.class);
    private final CamundaIdentity camunda = mock(CamundaIdentity.class);
    private final Instant later = Instant.now().plusSeconds(60);

    @BeforeEach
    void delegates() {
        // as the record says of every command a process waits for
        when(runs.answeredUnawaited(any(), any(), any())).thenReturn(AgentRuns.DetachedAnswer.NOT_DETACHED);
        when(runs.waitFor(eq(RUN), any())).thenAnswer(call -> Optional.ofNullable(awaited.get(call.getArgument(1))));
        org.mockito.Mockito.doAnswer(call -> {
            awaited.clear(); // the awaited action is settled: nothing waits for it any more
            return null;
        }).when(runs).settle(eq(RUN), any());
        RunDelegates delegates = new RunDelegates();
        var runtime = runtimeService();
        Mocks.register("runAdmit", delegates.runAdmit(runs, new ProcessInstances(runtime)));
        Mocks.register("runWaits", delegates.runWaits(camunda));
        Mocks.register("runReadmit", delegates.runReadmit(runs));
        Mocks.register("runPrepare", delegates.runPrepare(runs));
        Mocks.register("actionDispatch", delegates.actionDispatch(runs));
        Mocks.register("actionOutcome", delegates.actionOutcome(runs));
        Mocks.register("runTimedOut", delegates.runTimedOut(runs));
        Mocks.register("runFinish", delegates.runFinish(runs, new QueuedTurns(runtime)));
        when(runs.prepare(eq(RUN), anyBoolean())).thenReturn(true);
        when(runs.finish(RUN)).thenReturn(Optional.empty());
    }

    @AfterEach
    void reset() {
        Mocks.reset();
    }

    private ProcessInstance start(RunStatus admission) {
        when(runs.admit(any())).thenReturn(new AgentRuns.Admission(admission, null, List.of()));
        return runtimeService().startProcessInstanceByKey("agent-run", RUN, RunLauncher.variables(
                new RunRequest(RUN, "agent-1", "alice", 1, "invoke", null, null, false)));
    }

    /**
     * The record, as far as the waits read it: the execution each awaited command names, until its
     * action is settled ({@link AgentRuns#waitFor}).
     */
    private final java.util.Map<String, String> awaited = new java.util.HashMap<>();

    /** The steps the next dispatches take, in order (the last one repeats), recorded as the record would. */
    private void dispatches(AgentRuns.DispatchStep... steps) {
        java.util.Deque<AgentRuns.DispatchStep> script = new java.util.ArrayDeque<>(List.of(steps));
        when(runs.dispatch(eq(RUN), any())).thenAnswer(call -> {
            AgentRuns.DispatchStep step = script.size() > 1 ? script.poll() : script.peek();
            if (step.sent() && !step.detached()) {
                awaited.put(step.invocationId(), call.getArgument(1));
            }
            return step;
        });
    }

    private void sends(String invocationId) {
        dispatches(new AgentRuns.DispatchStep(true, false, invocationId, later, later));
    }

    private Outcome answer(String invocationId) {
        Outcome outcome = new Outcome.Completed(invocationId, null);
        wakeups().answered(invocationId, RUN, outcome, true);
        return outcome;
    }

    /** The answers' wakes, every one at once. */
    private RunAnswerWakeups wakeups() {
        return wakeups(new dev.ringzero.agents.runs.DevicesFirst(dev.ringzero.agents.runs.EventBacklog.NONE),
                new CountedTransactions(), java.time.Duration.ZERO);
    }

    /**
     * The answers' wakes, a session's handed over to {@code devicesFirst} with {@code yield}, in
     * {@code transactions} (none the in-memory engine sees: it commits its own commands).
     */
    private RunAnswerWakeups wakeups(dev.ringzero.agents.runs.DevicesFirst devicesFirst,
            CountedTransactions transactions, java.time.Duration yield) {
        return new RunAnswerWakeups((org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl)
                processEngine().getProcessEngineConfiguration(), runs, new QueuedTurns(runtimeService()),
                devicesFirst, transactions.template(),
                new dev.ringzero.agents.llm.LlmSettings(null, null, null, null, null, 0, 0, 0, yield));
    }

    private ExecutionWaits.Woken deadlinePassed(String invocationId) {
        return wakeups().deadlinePassed(RUN, invocationId);
    }

    @Test
    void aSuspendedRunsOverdueCommandIsNotWokenUntilItIsActiveAgain() {
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.ACTION, AgentRuns.Next.DONE);
        sends("inv-1");
        ProcessInstance run = start(RunStatus.ADMITTED);
        runtimeService().suspendProcessInstanceById(run.getId());

        assertThat(deadlinePassed("inv-1")).isEqualTo(ExecutionWaits.Woken.SUSPENDED);
        assertThat(run).isWaitingAt("Task_AwaitLinkResult");
        verify(runs, never()).settle(eq(RUN), any());

        runtimeService().activateProcessInstanceById(run.getId());
        assertThat(deadlinePassed("inv-1")).isEqualTo(ExecutionWaits.Woken.WOKEN);
        assertThat(run).isEnded().hasPassed("Task_RecordOutcome", "EndEvent_RunFinished");
        verify(runs).settle(RUN, null);
    }

    @Test
    void aDetachedLastCommandEndsTheInstanceAsItLeavesAndItsAnswerSettlesTheRecord() {
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.ACTION);
        dispatches(new AgentRuns.DispatchStep(true, false, "inv-last", later, later, true));
        when(runs.answeredUnawaited(eq(RUN), eq("inv-last"), any()))
                .thenReturn(new AgentRuns.DetachedAnswer(true, Optional.empty()));

        ProcessInstance run = start(RunStatus.ADMITTED);

        // no wait, no timer job: the run's instance is over once its command has left
        assertThat(run).isEnded().hasPassed("EndEvent_CommandLeft").hasNotPassed("Task_FinishRun");
        assertThat(managementService().createJobQuery().count()).isZero();
        verify(runs, never()).finish(RUN);

        answer("inv-last");

        verify(runs).answeredUnawaited(eq(RUN), eq("inv-last"), any());
        verify(runs, never()).settle(eq(RUN), any());
    }

    @Test
    void theOwnerIsGrantedTheRunAtItsFirstWaitOnly() {
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.ACTION, AgentRuns.Next.ACTION, AgentRuns.Next.DONE);
        sends("inv-1");
        ProcessInstance run = start(RunStatus.ADMITTED);
        assertThat(run).isWaitingAt("Task_AwaitLinkResult");
        verify(camunda).grantRunning("alice", run.getId());

        sends("inv-2");
        answer("inv-1");
        assertThat(run).isWaitingAt("Task_AwaitLinkResult"); // the second command's wait
        answer("inv-2");

        assertThat(run).isEnded();
        verify(camunda, times(1)).grantRunning(any(), any());
    }

    @Test
    void aRunThatNeverWaitsIsGrantedNothing() {
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.ACTION);
        dispatches(new AgentRuns.DispatchStep(true, false, "inv-last", later, later, true));

        assertThat(start(RunStatus.ADMITTED)).isEnded().hasPassed("EndEvent_CommandLeft");
        assertThat(start(RunStatus.RATE_LIMITED)).isEnded().hasPassed("EndEvent_NotAdmitted");

        verify(camunda, never()).grantRunning(any(), any());
    }

    @Test
    void anAnswerTheRecordDoesNotSettleAsDetachedWakesItsWait() {
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.ACTION, AgentRuns.Next.DONE);
        when(runs.answeredUnawaited(eq(RUN), eq("inv-1"), any())).thenReturn(AgentRuns.DetachedAnswer.NOT_DETACHED);
        sends("inv-1");
        ProcessInstance run = start(RunStatus.ADMITTED);
        assertThat(run).isWaitingAt("Task_AwaitLinkResult");

        answer("inv-1");

        assertThat(run).isEnded().hasPassed("Task_RecordOutcome", "Task_FinishRun");
        verify(runs).settle(eq(RUN), any());
    }

    /** The work the answers' wakes hand over to be done after the device events, kept to run when the test says. */
    private static final class HandedOver extends dev.ringzero.agents.runs.DevicesFirst {
        final List<Runnable> work = new java.util.ArrayList<>();
        final List<java.time.Duration> yields = new java.util.ArrayList<>();
        final List<java.time.Duration> patiences = new java.util.ArrayList<>();

        HandedOver() {
            super(dev.ringzero.agents.runs.EventBacklog.NONE);
        }

        @Override
        public void later(java.time.Duration yield, java.time.Duration patience, Runnable work) {
            this.yields.add(yield);
            this.patiences.add(patience);
            this.work.add(work);
        }
    }

    /** Answers {@code invocationId} as the answer lane does, in a transaction that commits once the wake is asked. */
    private void answerInTheLane(RunAnswerWakeups wakeups, String invocationId, Runnable beforeCommit) {
        org.springframework.transaction.support.TransactionSynchronizationManager.initSynchronization();
        try {
            wakeups.answered(invocationId, RUN, new Outcome.Completed(invocationId, null), false);
            beforeCommit.run();
            org.springframework.transaction.support.TransactionSynchronizationUtils.triggerAfterCommit();
        } finally {
            org.springframework.transaction.support.TransactionSynchronizationManager.clearSynchronization();
        }
    }

    @Test
    void aSessionsAnswerWakesItsRunAfterTheLanesCommitAndAfterTheDeviceEvents() {
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.ACTION, AgentRuns.Next.DONE);
        when(runs.isSession(RUN)).thenReturn(true);
        sends("inv-1");
        ProcessInstance run = start(RunStatus.ADMITTED);
        HandedOver devicesFirst = new HandedOver();
        RunAnswerWakeups wakeups = wakeups(devicesFirst, new CountedTransactions(), java.time.Duration.ofMillis(700));

        answerInTheLane(wakeups, "inv-1", () -> assertThat(devicesFirst.work).as("nothing before the commit").isEmpty());

        assertThat(run).isWaitingAt("Task_AwaitLinkResult");
        assertThat(devicesFirst.yields).containsExactly(java.time.Duration.ofMillis(700));
        assertThat(devicesFirst.patiences).containsExactly(RunAnswerWakeups.WAKE_PATIENCE);
        devicesFirst.work.get(0).run();
        assertThat(run).isEnded().hasPassed("Task_RecordOutcome");
        verify(runs).settle(eq(RUN), org.mockito.ArgumentMatchers.argThat(answer ->
                "inv-1".equals(answer.invocationId()) && "completed".equals(answer.status())));
    }

    @Test
    void anAnswerRecordedAloneWakesItsRunWithTheActionsRowLockHeldInATransactionOfItsOwn() {
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.ACTION, AgentRuns.Next.DONE);
        sends("inv-1");
        ProcessInstance run = start(RunStatus.ADMITTED);
        CountedTransactions transactions = new CountedTransactions();
        java.util.List<Integer> openAtTheLock = new java.util.ArrayList<>();
        when(runs.waitFor(eq(RUN), any())).thenAnswer(call -> {
            openAtTheLock.add(transactions.open());
            return Optional.ofNullable(awaited.get(call.getArgument(1)));
        });

        // the answer lane's batch failed: the answer is recorded alone, and its run woken with no
        // transaction of the lane's around it
        wakeups(new HandedOver(), transactions, java.time.Duration.ZERO)
                .answered("inv-1", RUN, new Outcome.Completed("inv-1", null), true);

        assertThat(run).isEnded();
        assertThat(openAtTheLock).as("a transaction was open when the action's row was locked").containsExactly(1);
        assertThat(transactions.open()).isZero();
    }

    @Test
    void aRulesRunsAnswerAndTheRehearsalsWakeTheirRunInTheLanesTransaction() {
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.ACTION, AgentRuns.Next.ACTION, AgentRuns.Next.DONE);
        when(runs.isSession(RUN)).thenReturn(false);
        sends("inv-1");
        ProcessInstance run = start(RunStatus.ADMITTED);
        HandedOver devicesFirst = new HandedOver();
        RunAnswerWakeups wakeups = wakeups(devicesFirst, new CountedTransactions(), java.time.Duration.ofMillis(700));

        sends("inv-2");
        // woken before the commit: the second command's wait now
        answerInTheLane(wakeups, "inv-1", () -> verify(runs).settle(eq(RUN), any()));
        assertThat(run).isWaitingAt("Task_AwaitLinkResult");
        when(runs.isSession(RUN)).thenReturn(true);
        org.springframework.transaction.support.TransactionSynchronizationManager.initSynchronization();
        try {
            wakeups.answered("inv-2", RUN, new Outcome.Completed("inv-2", null), true);
        } finally {
            org.springframework.transaction.support.TransactionSynchronizationManager.clearSynchronization();
        }

        assertThat(run).isEnded();
        assertThat(devicesFirst.work).isEmpty();
    }

    @Test
    void anAnswerSettledAsDetachedWakesNoWait() {
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.ACTION, AgentRuns.Next.DONE);
        when(runs.answeredUnawaited(eq(RUN), eq("inv-1"), any()))
                .thenReturn(new AgentRuns.DetachedAnswer(true, Optional.empty()));
        sends("inv-1");
        ProcessInstance run = start(RunStatus.ADMITTED);

        answer("inv-1");

        // the record said detached: the engine's wait (here, by a mock's word) is not touched
        assertThat(run).isWaitingAt("Task_AwaitLinkResult");
        verify(runs, never()).settle(eq(RUN), any());
    }

    @Test
    void aRunThatIsNotAdmittedEndsAtOnceAndPreparesNothing() {
        ProcessInstance run = start(RunStatus.RATE_LIMITED);

        assertThat(run).isEnded().hasPassed("EndEvent_NotAdmitted");
        verify(runs, never()).prepare(eq(RUN), anyBoolean());
    }

    @Test
    void aCoolingRunWaitsOnATimerUntilItsEligibleTimeThenIsAdmittedAgainAndRuns() {
        Instant eligible = Instant.now().plusSeconds(20).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        when(runs.admit(any())).thenReturn(new AgentRuns.Admission(RunStatus.COOLING, "waits", List.of(), eligible));
        when(runs.readmit(RUN)).thenReturn(new AgentRuns.Admission(RunStatus.COOLING, "again", List.of(),
                eligible.plusSeconds(5)), new AgentRuns.Admission(RunStatus.ADMITTED, null, List.of()));
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.DONE);
        ProcessInstance run = runtimeService().startProcessInstanceByKey("agent-run", RUN, RunLauncher.variables(
                new RunRequest(RUN, "agent-1", "alice", 1, "gadget.event", null, null, true)));

        assertThat(run).isWaitingAt("Catch_CooledDown");
        assertThat(job(run).getDuedate().toInstant()).isEqualTo(eligible);
        verify(runs, never()).prepare(eq(RUN), anyBoolean());
        execute(job(run)); // cooled down, but another run took the slot: cools again
        assertThat(run).isWaitingAt("Catch_CooledDown");
        assertThat(job(run).getDuedate().toInstant()).isEqualTo(eligible.plusSeconds(5));
        execute(job(run));

        assertThat(run).isEnded().hasPassed("Task_AdmitAgain", "Task_PrepareRun", "EndEvent_RunFinished");
        verify(runs).prepare(RUN, true); // readmitted in the timer's transaction: recorded running there
    }

    @Test
    void aCoolingRunThatIsNotAdmittedAgainEndsNotAdmitted() {
        when(runs.admit(any())).thenReturn(new AgentRuns.Admission(RunStatus.COOLING, "waits", List.of(),
                Instant.now().plusSeconds(20)));
        when(runs.readmit(RUN)).thenReturn(new AgentRuns.Admission(RunStatus.COOLDOWN, "cooldownSeconds", List.of()));
        ProcessInstance run = runtimeService().startProcessInstanceByKey("agent-run", RUN, RunLauncher.variables(
                new RunRequest(RUN, "agent-1", "alice", 1, "gadget.event", null, null, true)));

        execute(job(run));

        assertThat(run).isEnded().hasPassed("Task_AdmitAgain", "EndEvent_NotAdmitted");
        verify(runs, never()).prepare(eq(RUN), anyBoolean());
    }

    @Test
    void anAdmittedRunSendsItsActionWaitsForItsOwnAnswerAndFinishes() {
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.ACTION, AgentRuns.Next.DONE);
        sends("inv-1");

        ProcessInstance run = start(RunStatus.ADMITTED);

        // the agent's id is the only stored variable: the record names the wait (its execution), and
        // the wait has no event subscription and no execution of its own
        assertThat(run).isWaitingAt("Task_AwaitLinkResult").variables().containsOnlyKeys(ProcessIds.VAR_AGENT_ID);
        assertThat(runtimeService().createEventSubscriptionQuery().processInstanceId(run.getId()).count()).isZero();
        assertThat(awaited).containsExactly(java.util.Map.entry("inv-1", run.getId()));
        // no timer job: the command's deadline is its record's, swept by the node
        assertThat(managementService().createJobQuery().processInstanceId(run.getId()).count()).isZero();
        answer("inv-0"); // another invocation's answer
        assertThat(run).isWaitingAt("Task_AwaitLinkResult");
        Outcome outcome = answer("inv-1");
        assertThat(run).isEnded().hasPassed("Task_AwaitLinkResult", "Task_RecordOutcome", "Task_FinishRun",
                "EndEvent_RunFinished").hasNotPassed("Task_RunTimedOut");
        verify(runs).settle(RUN, AgentRuns.Answer.of(outcome)); // the answer is handed over, not read again
        verify(runs).prepare(RUN, true); // admitted in the same transaction: recorded running already
    }

    @Test
    void noAnswerByTheDeadlineSettlesTheActionAndAnExhaustedRunTimesOut() {
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.ACTION, AgentRuns.Next.TIMED_OUT);
        sends("inv-1");
        ProcessInstance run = start(RunStatus.ADMITTED);

        assertThat(deadlinePassed("inv-0")).isEqualTo(ExecutionWaits.Woken.NONE); // no such wait
        assertThat(run).isWaitingAt("Task_AwaitLinkResult");

        assertThat(deadlinePassed("inv-1")).isEqualTo(ExecutionWaits.Woken.WOKEN); // the sweep, at awaited_by

        assertThat(run).isEnded().hasPassed("Task_AwaitLinkResult", "Task_RecordOutcome", "Task_RunTimedOut",
                "Task_FinishRun");
        verify(runs).settle(RUN, null);
        verify(runs).timedOut(RUN);
    }

    @Test
    void anActionSettledAtOnceGoesStraightToTheNextStep() {
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.ACTION, AgentRuns.Next.ACTION, AgentRuns.Next.DONE);
        dispatches(new AgentRuns.DispatchStep(false, false, null, null, null),
                new AgentRuns.DispatchStep(true, false, "inv-2", later, later));
        ProcessInstance run = start(RunStatus.ADMITTED);

        assertThat(run).isWaitingAt("Task_AwaitLinkResult");
        answer("inv-2");
        assertThat(run).isEnded().hasPassed("EndEvent_RunFinished");
    }

    @Test
    void aSoundWaitsForTheSpeakerUntilTheRunsDeadline() {
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.ACTION);
        dispatches(new AgentRuns.DispatchStep(false, true, null, null, later));
        ProcessInstance run = start(RunStatus.ADMITTED);

        assertThat(run).isWaitingAt("Gateway_AwaitSpeaker");
        execute(job(run)); // Catch_RunDeadline

        assertThat(run).isEnded().hasPassed("Catch_RunDeadline", "Task_RunTimedOut", "Task_FinishRun")
                .hasNotPassed("Catch_SpeakerTurn");
    }

    @Test
    void aQueuedRunWaitsForItsTurnAndGoesOnInAJobOfItsOwn() {
        when(runs.next(RUN)).thenReturn(AgentRuns.Next.DONE);
        ProcessInstance run = start(RunStatus.QUEUED);
        assertThat(run).isWaitingAt("Catch_AgentTurn");

        runtimeService().createMessageCorrelation(ProcessIds.MESSAGE_AGENT_TURN).processInstanceBusinessKey(RUN)
                .correlateAll();

        assertThat(job(run)).hasActivityId("Catch_AgentTurn"); // asynchronous after the turn
        verify(runs, never()).prepare(eq(RUN), anyBoolean());
        execute(job(run));
        assertThat(run).isEnded().hasPassed("Task_PrepareRun", "EndEvent_RunFinished");
        verify(runs).prepare(RUN, false); // its turn: it starts from queued, not as just admitted
    }
}
