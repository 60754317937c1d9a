package dev.ringzero.workflow;

import java.time.Duration;
import java.util.List;

import dev.ringzero.agents.runs.AgentRuns;
import dev.ringzero.agents.runs.RunRequest;
import dev.ringzero.agents.runs.RunStatus;
import dev.ringzero.gateway.Dispatcher;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Thin glue between {@code processes/agent-run.bpmn} and {@link AgentRuns}: read variables, call
 * one method, write variables. Decisions live in the service.
 */
@Configuration
class RunDelegates {

    /** A margin past the device's deadline, so an answer sent at the last moment still counts. */
    private static final Duration ANSWER_GRACE = Duration.ofSeconds(1);

    @Bean
    JavaDelegate runAdmit(AgentRuns runs, RuntimeService runtime) {
        return execution -> {
            AgentRuns.Admission admission = runs.admit(request(execution));
            for (String cancelled : admission.cancelRuns()) {
                runtime.createProcessInstanceQuery().processInstanceBusinessKey(cancelled)
                        .processDefinitionKey(ProcessIds.AGENT_RUN).list()
                        .forEach(instance -> runtime.deleteProcessInstance(instance.getId(), "restarted"));
            }
            execution.setVariable("admission", admission.status().wire());
            execution.setVariable("status", admission.status().wire());
            execution.setVariable("maxRunDuration", "PT30S");
        };
    }

    @Bean
    JavaDelegate runPrepare(AgentRuns runs) {
        return execution -> {
            String runId = runId(execution);
            if (RunStatus.QUEUED.wire().equals(execution.getVariable("admission"))) {
                runs.takeTurn(runId);
            }
            List<Integer> indexes = runs.prepare(runId);
            execution.setVariable("actionIndexes", indexes);
            execution.setVariable("maxRunDuration", runs.maxRun(runId).toString());
            execution.setVariable("status", "running");
        };
    }

    @Bean
    JavaDelegate actionDispatch(AgentRuns runs) {
        return execution -> {
            AgentRuns.DispatchStep step = runs.dispatch(runId(execution), (Integer) execution.getVariable("actionIndex"));
            execution.setVariableLocal("sent", step.sent());
            execution.setVariableLocal("waiting", step.waiting());
            execution.setVariableLocal("invocationId", step.invocationId());
            execution.setVariableLocal("commandTimeout", step.sent() ? step.timeout().plus(ANSWER_GRACE).toString()
                    : "PT0S");
        };
    }

    @Bean
    JavaDelegate actionOutcome(AgentRuns runs) {
        return execution -> runs.settle(runId(execution), (Integer) execution.getVariable("actionIndex"),
                (String) execution.getVariable("invocationId"));
    }

    @Bean
    JavaDelegate runTimedOut(AgentRuns runs) {
        return execution -> runs.timedOut(runId(execution));
    }

    @Bean
    JavaDelegate runFinish(AgentRuns runs, RuntimeService runtime) {
        return execution -> {
            runs.finish(runId(execution)).ifPresent(next -> runtime.createMessageCorrelation(
                    ProcessIds.MESSAGE_AGENT_TURN).processInstanceBusinessKey(next).correlateAll());
            execution.setVariable("status", "finished");
        };
    }

    /** Wakes the run waiting for a device's answer; the outcome itself is read from the invocation record. */
    @Bean
    Dispatcher.AnswerListener runAnswerCorrelation(RuntimeService runtime) {
        return (invocationId, runId, outcome) -> {
            if (runId == null) {
                return;
            }
            // A run waits for one answer at a time, and only an answer that settled its invocation
            // (the first one, before the deadline) is announced, so the run id is enough here.
            runtime.createMessageCorrelation(ProcessIds.MESSAGE_LINK_RESULT).processInstanceBusinessKey(runId)
                    .correlateAll();
        };
    }

    /**
     * Speaker turns: a granted run is woken to dispatch (and re-ask the kernel); a stale one is
     * recorded as dropped and woken to move on. A turn nobody waits for any more (the run ended)
     * is handed back at once, so a vanished run can never hold a speaker.
     */
    @Bean
    dev.ringzero.policy.SpeakerFloor.TurnListener runSpeakerTurns(AgentRuns runs, RuntimeService runtime,
            dev.ringzero.policy.SpeakerFloor floor, org.springframework.scheduling.TaskScheduler scheduler,
            java.time.Clock clock) {
        return (gadgetId, turns) -> {
            for (dev.ringzero.kernel.Turn turn : turns) {
                String[] ticket = ticketOf(turn).split(":");
                if (ticket.length != 3 || !"run".equals(ticket[0])) {
                    continue;
                }
                boolean granted = turn instanceof dev.ringzero.kernel.Turn.Granted;
                if (turn instanceof dev.ringzero.kernel.Turn.DroppedStale) {
                    runs.dropStale(ticket[1], Integer.parseInt(ticket[2]));
                } else if (!granted) {
                    continue;
                }
                wake(runtime, scheduler, clock, ticket[1], 0, () -> {
                    if (granted) {
                        floor.release(gadgetId, ticketOf(turn));
                    }
                });
            }
        };
    }

    /** Back-off for a turn that came while its run was still committing its request for it. */
    private static final long[] WAKE_RETRY_MILLIS = {25, 100, 400, 1_500, 5_000};

    /**
     * Wakes the run waiting for its speaker turn. The turn may come before the run's request for
     * it has committed (the run is not waiting yet): then it is retried a few times, and only a
     * turn that nobody takes in the end is handed back, so a vanished run never holds a speaker.
     */
    private static void wake(RuntimeService runtime, org.springframework.scheduling.TaskScheduler scheduler,
            java.time.Clock clock, String runId, int attempt, Runnable giveBack) {
        boolean woken;
        try {
            woken = !runtime.createMessageCorrelation(ProcessIds.MESSAGE_SPEAKER_TURN)
                    .processInstanceBusinessKey(runId).correlateAllWithResult().isEmpty();
        } catch (org.camunda.bpm.engine.OptimisticLockingException e) {
            woken = false;
        }
        if (woken) {
            return;
        }
        if (attempt >= WAKE_RETRY_MILLIS.length) {
            giveBack.run();
            return;
        }
        scheduler.schedule(() -> wake(runtime, scheduler, clock, runId, attempt + 1, giveBack),
                clock.instant().plusMillis(WAKE_RETRY_MILLIS[attempt]));
    }

    private static String ticketOf(dev.ringzero.kernel.Turn turn) {
        if (turn instanceof dev.ringzero.kernel.Turn.Granted granted) {
            return granted.ticket();
        }
        if (turn instanceof dev.ringzero.kernel.Turn.DroppedStale stale) {
            return stale.ticket();
        }
        return ((dev.ringzero.kernel.Turn.Preempted) turn).ticket();
    }

    private static String runId(DelegateExecution execution) {
        return (String) execution.getVariable(ProcessIds.VAR_RUN_ID);
    }

    private static RunRequest request(DelegateExecution execution) {
        return new RunRequest(runId(execution), (String) execution.getVariable("agentId"),
                (String) execution.getVariable(ProcessIds.VAR_OWNER_ID), (Integer) execution.getVariable("revision"),
                (String) execution.getVariable("triggerKind"), (String) execution.getVariable("triggerData"),
                (String) execution.getVariable("eventId"), (Boolean) execution.getVariable("proactive"));
    }
}
