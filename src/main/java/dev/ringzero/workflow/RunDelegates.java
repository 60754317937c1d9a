package dev.ringzero.workflow;

import java.util.Date;

import dev.ringzero.agents.runs.AgentRuns;
import dev.ringzero.agents.runs.RunRequest;
import dev.ringzero.agents.runs.RunStatus;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.variable.Variables;
import org.camunda.bpm.engine.variable.value.TypedValue;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Thin glue between {@code processes/agent-run.bpmn} and {@link AgentRuns}: read variables, call
 * one method, write variables. Decisions live in the service.
 */
@Configuration
class RunDelegates {

    @Bean
    JavaDelegate runAdmit(AgentRuns runs, ProcessInstances instances) {
        return execution -> {
            AgentRuns.Admission admission = runs.admit(request(execution));
            for (String cancelled : admission.cancelRuns()) {
                instances.cancel(ProcessIds.AGENT_RUN, cancelled, "restarted");
            }
            admitted(execution, admission);
        };
    }

    /**
     * A cooling run's timer fired: admission once more, which may let it run, queue, cool again or
     * end it. The owner's Cockpit grant was given when it first cooled.
     */
    @Bean
    JavaDelegate runReadmit(AgentRuns runs) {
        return execution -> admitted(execution, runs.readmit(execution.getProcessBusinessKey()));
    }

    private static void admitted(DelegateExecution execution, AgentRuns.Admission admission) {
        transient_(execution, RunVariables.ADMISSION, Variables.stringValue(admission.status().wire(), true));
        if (admission.eligibleAt() != null) {
            transient_(execution, RunVariables.ELIGIBLE_AT,
                    Variables.dateValue(Date.from(admission.eligibleAt()), true));
        }
    }

    /**
     * The owner may follow the run in Cockpit while it waits (analysts read every run): granted at
     * the run's first wait, the only one its starting transaction reaches, while the owner's id is
     * still among the transient start variables (later waits find it gone and grant nothing again).
     * A run that never waits (not admitted, or ended as its last command left) costs no grant: the
     * engine would insert the row and delete it again in the same transaction.
     */
    @Bean
    ExecutionListener runWaits(CamundaIdentity camunda) {
        return execution -> {
            Object owner = execution.getVariable(ProcessIds.VAR_OWNER_ID);
            if (owner instanceof String ownerId) {
                camunda.grantRunning(ownerId, execution.getProcessInstanceId());
            }
        };
    }

    @Bean
    JavaDelegate runPrepare(AgentRuns runs) {
        return execution -> {
            String runId = execution.getProcessBusinessKey();
            // admission hands over "admitted" only in the transaction that admitted the run (a
            // transient variable); a queued run's turn, or any other way in, comes without it
            runs.prepare(runId, RunStatus.ADMITTED.wire().equals(execution.getVariable(RunVariables.ADMISSION)));
            next(execution, runs.next(runId));
        };
    }

    @Bean
    JavaDelegate actionDispatch(AgentRuns runs) {
        return execution -> {
            String runId = execution.getProcessBusinessKey();
            // an awaited command's record names this execution, which waits at Task_AwaitLinkResult
            // (the gateway and the receive task are no scopes: the same execution)
            AgentRuns.DispatchStep step = runs.dispatch(runId, execution.getId());
            transient_(execution, RunVariables.SENT, Variables.booleanValue(step.sent(), true));
            transient_(execution, RunVariables.WAITING, Variables.booleanValue(step.waiting(), true));
            transient_(execution, RunVariables.DETACHED, Variables.booleanValue(step.detached(), true));
            // sent: the answer's deadline is the record's (rz_run_action.awaited_by), which the node's sweep watches
            if (step.waiting()) {
                transient_(execution, RunVariables.RUN_DEADLINE,
                        Variables.dateValue(Date.from(step.runDeadline()), true));
            } else if (!step.sent()) {
                next(execution, runs.next(runId));
            }
        };
    }

    @Bean
    JavaDelegate actionOutcome(AgentRuns runs) {
        return execution -> {
            String runId = execution.getProcessBusinessKey();
            runs.settle(runId, RunVariables.answer(execution));
            next(execution, runs.next(runId));
        };
    }

    /**
     * An llm run's model turn: asked here, played off the engine. Its record names this execution,
     * which goes on to wait at the receive task (not a scope: the same execution) until the turn's
     * end wakes it.
     */
    @Bean
    JavaDelegate modelAsk(AgentRuns runs, dev.ringzero.agents.llm.LlmSessions sessions) {
        return execution -> {
            String runId = execution.getProcessBusinessKey();
            sessions.ask(runId, runs.deadline(runId), execution.getId());
        };
    }

    /** The turn's record decides, whether its end or its deadline woke the wait. */
    @Bean
    JavaDelegate modelAnswered(AgentRuns runs, dev.ringzero.agents.llm.LlmSessions sessions) {
        return execution -> {
            String runId = execution.getProcessBusinessKey();
            sessions.answeredLast(runId);
            next(execution, runs.next(runId));
        };
    }

    @Bean
    JavaDelegate runTimedOut(AgentRuns runs) {
        return execution -> runs.timedOut(execution.getProcessBusinessKey());
    }

    @Bean
    JavaDelegate runFinish(AgentRuns runs, QueuedTurns turns) {
        return execution -> runs.finish(execution.getProcessBusinessKey()).ifPresent(turns::turnCame);
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
                Runnable giveBack = () -> {
                    if (granted) {
                        floor.release(gadgetId, ticketOf(turn));
                    }
                };
                try {
                    if (turn instanceof dev.ringzero.kernel.Turn.DroppedStale) {
                        runs.dropStale(ticket[1], Integer.parseInt(ticket[2]));
                    } else if (!granted) {
                        continue;
                    }
                    wake(runtime, scheduler, clock, ticket[1], 0, giveBack);
                } catch (RuntimeException e) {
                    // whatever went wrong, a granted turn nobody took never holds the speaker
                    giveBack.run();
                }
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
        } catch (RuntimeException e) {
            woken = false; // e.g. the run moved on meanwhile (optimistic locking): try again, then hand back
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

    private static void next(DelegateExecution execution, AgentRuns.Next next) {
        transient_(execution, RunVariables.NEXT, Variables.stringValue(next.wire(), true));
    }

    /** Steers the next gateway or timer of this transaction; never written to the engine's tables. */
    private static void transient_(DelegateExecution execution, String name, TypedValue value) {
        execution.setVariable(name, value);
    }

    private static RunRequest request(DelegateExecution execution) {
        return new RunRequest(execution.getProcessBusinessKey(), (String) execution.getVariable(ProcessIds.VAR_AGENT_ID),
                (String) execution.getVariable(ProcessIds.VAR_OWNER_ID),
                (Integer) execution.getVariable(ProcessIds.VAR_REVISION),
                (String) execution.getVariable(ProcessIds.VAR_TRIGGER_KIND),
                (String) execution.getVariable(RunVariables.TRIGGER_DATA),
                (String) execution.getVariable(RunVariables.EVENT_ID),
                (Boolean) execution.getVariable(RunVariables.PROACTIVE));
    }
}
