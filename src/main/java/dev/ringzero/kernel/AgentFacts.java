package dev.ringzero.kernel;

import java.util.Set;

/**
 * The current grants of a gadget agent, read at execution time: enabled, its current revision (runs of
 * older revisions are fenced), the commands, intents and platform tools it may use, and whether it may
 * move things.
 */
public record AgentFacts(String id, String ownerId, boolean enabled, int currentRevision, Set<String> allowedCommands,
        Set<String> allowedIntents, Set<String> allowedTools, boolean physicalAllowed) {

    public AgentFacts {
        Require.text(id, "id");
        Require.text(ownerId, "ownerId");
        allowedCommands = Require.frozen(allowedCommands);
        allowedIntents = Require.frozen(allowedIntents);
        allowedTools = Require.frozen(allowedTools);
    }
}
