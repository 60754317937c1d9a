package dev.ringzero.workflow;

import dev.ringzero.gates.GateService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Thin glue between {@code processes/gate.bpmn} and {@link GateService}. */
@Configuration
class GateDelegates {

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
            gates.recordDecision((String) task.getVariable(ProcessIds.VAR_GATE_ID), "approve".equals(decision),
                    decidedBy, note == null ? null : note.toString());
        };
    }

    @Bean
    JavaDelegate gateExecution(GateService gates) {
        return execution -> gates.execute((String) execution.getVariable(ProcessIds.VAR_GATE_ID));
    }

    @Bean
    JavaDelegate gateExpiry(GateService gates) {
        return execution -> gates.expire((String) execution.getVariable(ProcessIds.VAR_GATE_ID));
    }
}
