package dev.ringzero.gates;

import java.util.List;

import dev.ringzero.agents.AgentService;
import dev.ringzero.gadgets.GadgetService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The revision fence for gates: a pending gate was proposed under a policy that no longer holds
 * once its agent is revised, disabled or deleted, or its gadget unpaired, so it ends {@code fenced}
 * (terminal) instead of waiting for a human to approve something stale. Runs in the transaction of
 * the change when there is one, so the fence and the change commit together.
 */
@Component
class GateFencing {

    private static final Logger log = LoggerFactory.getLogger(GateFencing.class);

    private final GateService gates;

    GateFencing(GateService gates) {
        this.gates = gates;
    }

    @EventListener
    void onAgentChanged(AgentService.AgentChanged changed) {
        String reason = switch (changed.change()) {
            case REVISED -> "the agent was revised";
            case DISABLED -> "the agent was disabled";
            case DELETED -> "the agent was deleted";
            default -> null;
        };
        if (reason != null) {
            report(gates.fenceAgent(changed.agentId(), reason), reason);
        }
    }

    @EventListener
    void onGadgetUnpaired(GadgetService.GadgetUnpaired unpaired) {
        report(gates.fenceGadget(unpaired.gadgetId(), "the gadget " + unpaired.gadgetId() + " was unpaired"),
                "gadget unpaired");
    }

    private static void report(List<String> fenced, String reason) {
        if (!fenced.isEmpty()) {
            log.info("fenced {} pending gate(s): {}", fenced.size(), reason);
        }
    }
}
