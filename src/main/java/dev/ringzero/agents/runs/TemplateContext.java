package dev.ringzero.agents.runs;

import java.util.Map;

/**
 * The roots an action's templates may read ({@code event}, {@code gadget}, {@code state},
 * {@code run}, {@code trigger}) — one shape for real runs and dry runs, so a dry run renders
 * exactly what the run would.
 */
final class TemplateContext {

    private TemplateContext() {
    }

    static Map<String, Object> of(Map<String, Object> trigger, String runId, int revision, String agentId,
            Map<String, Object> state) {
        return Map.of(
                "trigger", trigger,
                "event", trigger.getOrDefault("event", Map.of()),
                "gadget", trigger.getOrDefault("gadget", Map.of()),
                "run", Map.of("id", runId, "revision", revision, "agent", agentId),
                "state", state);
    }
}
