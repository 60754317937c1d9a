package dev.ringzero.workflow;

import dev.ringzero.agents.runs.AgentRuns;
import org.camunda.bpm.engine.delegate.VariableScope;
import org.camunda.bpm.engine.variable.VariableMap;
import org.camunda.bpm.engine.variable.Variables;
import org.camunda.bpm.engine.variable.value.StringValue;

/**
 * The steering variables of {@code agent-run}: transient, handed from one step to the next gateway
 * or timer within one transaction and never written to the engine's tables. What a run decided is
 * recorded in {@code rz_run} and {@code rz_run_action}; these only steer the model.
 */
final class RunVariables {

    /** Set by the launcher, read by admission. */
    static final String TRIGGER_DATA = "triggerData";
    static final String EVENT_ID = "eventId";
    static final String PROACTIVE = "proactive";

    /** admitted, queued, or the status a run that never starts ends with. */
    static final String ADMISSION = "admission";
    /** A cooling run's next eligible time: its timer fires then ({@code Catch_CooledDown}). */
    static final String ELIGIBLE_AT = "eligibleAt";
    /** action, timed_out or done: what the run does next. */
    static final String NEXT = "next";
    /** The action left for the device: wait for its answer (or for the sweep at its deadline). */
    static final String SENT = "sent";
    /** The action waits for the gadget's speaker, at most until {@link #RUN_DEADLINE}. */
    static final String WAITING = "waiting";
    /** Sent, and nothing after it waits for the answer: the run's instance ends, the record settles. */
    static final String DETACHED = "detached";
    /** The device's answer, handed over by the wake of its wait (AgentRuns.Answer). */
    static final String ANSWER_INVOCATION = "answerInvocation";
    static final String ANSWER_STATUS = "answerStatus";
    static final String ANSWER_CODE = "answerCode";
    static final String ANSWER_RESULT = "answerResult";
    static final String RUN_DEADLINE = "runDeadline";

    private RunVariables() {
    }

    /** The answer as transient values (the engine would need a serializer for an object). */
    static VariableMap answer(AgentRuns.Answer answer) {
        return Variables.createVariables()
                .putValueTyped(ANSWER_INVOCATION, transientString(answer.invocationId()))
                .putValueTyped(ANSWER_STATUS, transientString(answer.status()))
                .putValueTyped(ANSWER_CODE, transientString(answer.errorCode()))
                .putValueTyped(ANSWER_RESULT, transientString(answer.result()));
    }

    /** The answer handed to this step, or null (the deadline woke it). */
    static AgentRuns.Answer answer(VariableScope step) {
        String status = (String) step.getVariable(ANSWER_STATUS);
        return status == null ? null : new AgentRuns.Answer(
                (String) step.getVariable(ANSWER_INVOCATION), status, (String) step.getVariable(ANSWER_CODE),
                (String) step.getVariable(ANSWER_RESULT));
    }

    private static StringValue transientString(String value) {
        return Variables.stringValue(value, true);
    }
}
