package dev.ringzero.workflow;

import java.time.Duration;
import java.util.Optional;

import dev.ringzero.gates.GateService;
import dev.ringzero.dispatch.AnswerListener;
import dev.ringzero.dispatch.Outcome;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Thin glue between {@code processes/gate.bpmn} and {@link GateService}. */
@Configuration
class GateDelegates {

    private static final Logger log = LoggerFactory.getLogger(GateDelegates.class);

    /** Task listener on completion of the review task: the human's decision, recorded once. */
    @Bean
    TaskListener gateDecision(GateService gates, IdentityService identity) {
        return (DelegateTask task) -> {
            String decision = String.valueOf(task.getVariable(ProcessIds.VAR_DECISION));
            if (!"approve".equals(decision) && !"deny".equals(decision)) {
                throw new org.camunda.bpm.engine.exception.NotValidException("decision must be approve or deny");
            }
            var authentication = identity.getCurrentAuthentication();
            String decidedBy = authentication != null ? authentication.getUserId() : task.getAssignee();
            Object note = task.getVariable(ProcessIds.VAR_NOTE);
            gates.recordDecision(gateId(task.getVariable(ProcessIds.VAR_GATE_ID)), "approve".equals(decision),
                    decidedBy, note == null ? null : note.toString());
        };
    }

    /** approved → executing; commits before the executor is called (the next task is asynchronous). */
    @Bean
    JavaDelegate gateBeginExecution(GateService gates) {
        return execution -> gates.beginExecution(gateId(execution.getVariable(ProcessIds.VAR_GATE_ID)));
    }

    /** Runs the executor once; a device command then waits for its answer. */
    @Bean
    JavaDelegate gateExecution(GateService gates) {
        return execution -> {
            Optional<Duration> wait = gates.execute(gateId(execution.getVariable(ProcessIds.VAR_GATE_ID)));
            execution.setVariable("awaitingAnswer", wait.isPresent());
            execution.setVariable("answerTimeout", wait.orElse(Duration.ZERO).toString());
        };
    }

    /** The answer timer fired: replay the same invocation for its stored result, or settle as unknown. */
    @Bean
    JavaDelegate gateSettle(GateService gates) {
        return execution -> gates.reconcile(gateId(execution.getVariable(ProcessIds.VAR_GATE_ID)));
    }

    @Bean
    JavaDelegate gateExpiry(GateService gates) {
        return execution -> gates.expire(gateId(execution.getVariable(ProcessIds.VAR_GATE_ID)));
    }

    /**
     * A device answered: if it was a gate's invocation (the gate id is the invocation id), settle
     * the gate and move its process past the wait. Unknown outcomes come from the timer path itself.
     */
    @Bean
    AnswerListener gateAnswerCorrelation(GateService gates, GateProcess process) {
        return (invocationId, runId, outcome) -> {
            if (runId != null || outcome instanceof Outcome.Unknown) {
                return;
            }
            try {
                if (gates.onDeviceAnswer(invocationId)) {
                    process.answered(invocationId);
                }
            } catch (RuntimeException e) {
                // the answer timer settles the gate from the stored outcome
                log.warn("gate {}: settling on the device's answer failed: {}", invocationId, e.toString());
            }
        };
    }

    private static String gateId(Object value) {
        return (String) value;
    }
}
