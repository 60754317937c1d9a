package dev.ringzero.workflow;

import java.util.List;

import org.camunda.bpm.engine.impl.event.EventType;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.entity.EventSubscriptionEntity;

/**
 * The waits of {@code agent-run} that listen for one message, found by its name, which only one
 * wait has (an invocation's answer, a model turn): an indexed lookup of one subscription, woken
 * through that subscription as RuntimeService#messageEventReceived would after finding it again
 * by name and execution (a second select). A message correlation would find the same wait through
 * the engine's general execution query, whose dynamic SQL cost more CPU than all the rest of an
 * answer's step. No authorization check is skipped: the lanes that wake runs run as nobody.
 */
final class MessageWaits {

    private MessageWaits() {
    }

    static List<EventSubscriptionEntity> named(CommandContext context, String message) {
        return context.getEventSubscriptionManager()
                .findEventSubscriptionsByNameAndTenantId(EventType.MESSAGE.name(), message, null);
    }

    /** What waking a wait did (see {@link #wakeWithNothing}, {@link ExecutionWaits#wake}). */
    enum Woken {
        /** The wait went on, in the caller's transaction. */
        WOKEN,
        /** Its instance is suspended: not woken (a correlation would not find it either). */
        SUSPENDED,
        /** No wait listens for the message (it went on already, or its instance is gone). */
        NONE
    }

    /**
     * Wakes the wait for {@code message} with no variables, the caller's record saying what
     * happened (a model turn's end, a command's deadline), unless its instance is suspended.
     */
    static Woken wakeWithNothing(CommandContext context, String message) {
        List<EventSubscriptionEntity> waits = named(context, message);
        if (waits.isEmpty()) {
            return Woken.NONE;
        }
        if (waits.stream().anyMatch(wait -> wait.getExecution().isSuspended())) {
            return Woken.SUSPENDED;
        }
        for (EventSubscriptionEntity wait : waits) {
            wait.eventReceived(null, null, null, null, false);
        }
        return Woken.WOKEN;
    }
}
