package dev.ringzero.kernel;

import java.util.Optional;

/**
 * The port through which the kernel reads the current state of gadgets and agents. Adapters must answer
 * from the authoritative store at call time (no cache that outlives a revocation), because every
 * decision is made at execution time and a fence is only as fresh as these facts.
 */
public interface PolicyFacts {

    /** The gadget with this id, whoever owns it; the kernel does the ownership check itself. */
    Optional<GadgetFacts> gadget(String gadgetId);

    /** The agent with this id, whoever owns it; the kernel does the ownership check itself. */
    Optional<AgentFacts> agent(String agentId);
}
