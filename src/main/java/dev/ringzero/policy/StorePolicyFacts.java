package dev.ringzero.policy;

import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Optional;

import dev.ringzero.gadgets.GadgetRegistry;
import dev.ringzero.gadgets.GadgetStore;
import dev.ringzero.kernel.AgentFacts;
import dev.ringzero.kernel.GadgetFacts;
import dev.ringzero.kernel.PolicyFacts;
import dev.ringzero.kernel.QuietHours;
import org.springframework.stereotype.Component;

/**
 * The kernel's facts, read from the authoritative tables at decision time: never cached across
 * transactions, and within one read once per row (a step's admission and dispatch ask about the
 * same agent and gadget; see {@link dev.ringzero.TransactionReads}).
 */
@Component
class StorePolicyFacts implements PolicyFacts {

    private final GadgetStore gadgets;
    private final GadgetRegistry registry;
    private final AgentFactsSource agents;

    StorePolicyFacts(GadgetStore gadgets, GadgetRegistry registry, AgentFactsSource agents) {
        this.gadgets = gadgets;
        this.registry = registry;
        this.agents = agents;
    }

    @Override
    public Optional<GadgetFacts> gadget(String gadgetId) {
        return gadgets.find(gadgetId).map(row -> new GadgetFacts(row.id(), row.ownerId(), row.paired(),
                row.online(), registry.view(row).commands().keySet(), quietHours(row)));
    }

    @Override
    public Optional<AgentFacts> agent(String agentId) {
        return agents.agent(agentId);
    }

    private static Optional<QuietHours> quietHours(GadgetStore.Row row) {
        if (row.quietFrom() == null || row.quietTo() == null) {
            return Optional.empty();
        }
        return Optional.of(new QuietHours(LocalTime.parse(row.quietFrom()), LocalTime.parse(row.quietTo()),
                ZoneId.of(row.quietZone() == null ? "UTC" : row.quietZone())));
    }
}
