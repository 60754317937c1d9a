package dev.ringzero.workflow;

import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;

/**
 * The waits of {@code agent-run} (a receive task with no message): the caller's record names the
 * execution that waits, which is found by its id and signalled, as RuntimeService#signal would.
 * Every wait of a run is the same execution (the model has no scopes), so the record, not the
 * engine, says which wait this is: the caller reads it under a row lock that whoever moves the
 * run past the wait also takes ({@code RunStore#waitFor}, {@code SessionStore#waitOfLatest}), so
 * a late waker finds that the run went on. Such a wait is not a scope and has no event
 * subscription, so waiting and waking write no child execution and no subscription, and look up
 * neither (where a message catch writes, finds and deletes both, and looks its subscription's jobs
 * up). No authorization check is skipped: the lanes that wake runs run as nobody.
 */
final class ExecutionWaits {

    private ExecutionWaits() {
    }

    /** What waking a wait did. */
    enum Woken {
        /** The wait went on, in the caller's transaction. */
        WOKEN,
        /** Its instance is suspended: not woken. */
        SUSPENDED,
        /** Nothing waits there (it went on already, or its instance is gone). */
        NONE
    }

    /**
     * Wakes {@code executionId} if it still waits at {@code activityId}, handing it {@code
     * variables} (null: none, the caller's record says what happened), unless its instance is
     * suspended.
     */
    static Woken wake(CommandContext context, String executionId, String activityId,
            java.util.Map<String, Object> variables) {
        ExecutionEntity execution = context.getExecutionManager().findExecutionById(executionId);
        if (execution == null || !activityId.equals(execution.getActivityId())) {
            return Woken.NONE; // it went on already, or its instance is gone
        }
        if (execution.isSuspended()) {
            return Woken.SUSPENDED;
        }
        if (variables != null) {
            execution.setVariables(variables);
        }
        execution.signal(null, null);
        return Woken.WOKEN;
    }
}
