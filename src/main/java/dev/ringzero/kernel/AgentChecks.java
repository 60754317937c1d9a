package dev.ringzero.kernel;

import java.util.Optional;

/**
 * The agent half of a decision: whether the run still stands (the fences) and whether the agent holds
 * the grant for a command or intent. Separate from {@link PolicyKernel} so both decisions share one
 * wording of each rule.
 */
final class AgentChecks {

    private AgentChecks() {
    }

    /** The run's agent as this account sees it: another account's agent does not exist. */
    static Optional<AgentFacts> agentOf(PolicyFacts facts, Subject.AgentRun run) {
        return facts.agent(run.agentId()).filter(agent -> agent.ownerId().equals(run.accountId()));
    }

    /** Known, enabled and at the run's revision; any failure here fences the run. */
    static Optional<Verdict> standing(Subject.AgentRun run, Optional<AgentFacts> agent) {
        if (agent.isEmpty()) {
            return deny(DenyReason.AGENT_UNKNOWN, "no agent " + run.agentId());
        }
        if (!agent.get().enabled()) {
            return deny(DenyReason.AGENT_DISABLED, "agent " + run.agentId() + " is disabled");
        }
        if (agent.get().currentRevision() != run.revision()) {
            return deny(DenyReason.REVISION_STALE, "run " + run.runId() + " belongs to revision " + run.revision()
                    + "; the agent is at revision " + agent.get().currentRevision());
        }
        return Optional.empty();
    }

    /** A device command must be in the allowlist, and a moving one needs the physical grant as well. */
    static Optional<Verdict> commandGrant(AgentFacts agent, String command, CommandKind kind) {
        if (!agent.allowedCommands().contains(command)) {
            return deny(DenyReason.NOT_ALLOWED, command + " is not in the agent's allowed commands");
        }
        return physicalGrant(agent, command, kind);
    }

    /**
     * An intent is granted by {@code allowedIntents}; a device command may instead be granted by
     * {@code allowedCommands} (proposing a gated command needs no second grant), but a ring-3 integration
     * only ever by {@code allowedIntents}.
     */
    static Optional<Verdict> intentGrant(AgentFacts agent, String intent, CommandKind kind) {
        boolean granted = agent.allowedIntents().contains(intent)
                || kind != CommandKind.RING3 && agent.allowedCommands().contains(intent);
        if (!granted) {
            return deny(DenyReason.NOT_ALLOWED, intent + " is not in the agent's allowed intents");
        }
        return physicalGrant(agent, intent, kind);
    }

    /** A platform tool ({@code state.get}, {@code calendar.today}, ...) must be in {@code allow.tools}. */
    static Optional<Verdict> toolGrant(AgentFacts agent, String tool) {
        if (!agent.allowedTools().contains(tool)) {
            return deny(DenyReason.NOT_ALLOWED, tool + " is not in the agent's allowed tools");
        }
        return Optional.empty();
    }

    private static Optional<Verdict> physicalGrant(AgentFacts agent, String command, CommandKind kind) {
        if (kind.needsPhysicalGrant() && !agent.physicalAllowed()) {
            return deny(DenyReason.PHYSICAL_NOT_GRANTED, command + " moves the gadget; the agent has no physical grant");
        }
        return Optional.empty();
    }

    private static Optional<Verdict> deny(DenyReason reason, String detail) {
        return Optional.of(new Verdict.Deny(reason, detail));
    }
}
