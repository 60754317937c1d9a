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
}
