package dev.ringzero.workflow;

import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;

/**
 * The waits of {@code agent-run} that no message names (a receive task with no message): the
 * caller's record names the execution that waits, which is found by its id and signalled, as
 * RuntimeService#signal would. Such a wait is not a scope and has no event subscription, so
 * waiting and waking write no child execution and no subscription, and look up neither (where a
 * message catch writes, finds and deletes both, and looks its subscription's jobs up). No
 * authorization check is skipped: the lanes that wake runs run as nobody.
 */
final class ExecutionWaits {

    private ExecutionWaits() {
    }

    /**
     * Wakes {@code executionId} if it still waits at {@code activityId}, handing it {@code
     * variables} (null: none, the caller's record says what happened), unless its instance is
     * suspended.
     */
    static MessageWaits.Woken wake(CommandContext context, String executionId, String activityId,
            java.util.Map<String, Object> variables) {
        ExecutionEntity execution = context.getExecutionManager().findExecutionById(executionId);
        if (execution == null || !activityId.equals(execution.getActivityId())) {
            return MessageWaits.Woken.NONE; // it went on already, or its instance is gone
        }
        if (execution.isSuspended()) {
            return MessageWaits.Woken.SUSPENDED;
        }
        if (variables != null) {
            execution.setVariables(variables);
        }
        execution.signal(null, null);
        return MessageWaits.Woken.WOKEN;
    }
}
