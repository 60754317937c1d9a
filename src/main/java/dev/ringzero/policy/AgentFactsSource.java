package dev.ringzero.policy;

import java.util.Optional;

import dev.ringzero.kernel.AgentFacts;

/** Where the kernel's agent grants come from (ring 1's store), so gadgets need not know agents. */
public interface AgentFactsSource {

    Optional<AgentFacts> agent(String agentId);
}
