package dev.ringzero.agents.runs;

/**
 * Why a run should start: the agent and the revision it is admitted under, what triggered it
 * ({@code gadget.event}, {@code schedule}, {@code invoke}, {@code continuation}) with the trigger's
 * data as JSON, and whether it is proactive (events, schedules: budgets apply) or asked for.
 */
public record RunRequest(String runId, String agentId, String ownerId, int revision, String triggerKind,
        String triggerData, String eventId, boolean proactive) {
}
