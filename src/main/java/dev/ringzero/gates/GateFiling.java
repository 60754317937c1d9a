package dev.ringzero.gates;

import java.time.Clock;
import java.util.UUID;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.stereotype.Component;

/**
 * Files a gate for a human: the frozen proposal is stored {@code pending}, audited as gated,
 * journaled on its agent's timeline, and its {@code gate} process started with the review form's
 * variables. Runs in the caller's transaction, so a filing that fails leaves nothing behind.
 */
@Component
class GateFiling {

    private final GateProposals proposals;
    private final GateStore store;
    private final GateEngine process;
    private final Audit audit;
    private final Journal journal;
    private final ReviewForm form;
    private final Clock clock;

    GateFiling(GateProposals proposals, GateStore store, GateEngine process, Audit audit, Journal journal,
            ObjectMapper json, Clock clock) {
        this.proposals = proposals;
        this.store = store;
        this.process = process;
        this.audit = audit;
        this.journal = journal;
        this.form = new ReviewForm(GateProposals.canonical(json));
        this.clock = clock;
    }

    Gate file(GateService.Filing filing) {
        Gate gate = Gate.pending(UUID.randomUUID().toString(), proposals.freeze(filing), filing.ruleId(),
                clock.instant());
        store.insert(gate);
        audit.record(gate, Audit.Disposition.GATED, gate.decider(), gate.proposal().rationale());
        journal.append(gate.agentId(), gate.ownerId(), Journal.Actor.KERNEL, "gate.filed", gate.id(), gate.runId(),
                "Proposed " + gate.intent() + "; it waits for the owner (" + why(gate) + ")", gate.payload());
        String instanceId = process.start(gate, form.variables(gate));
        store.attachProcess(gate.id(), instanceId);
        return store.find(gate.id()).orElseThrow();
    }

    /** Why the ladder sent it where it went, for the journal: the rule, or the intent's default. */
    static String why(Gate gate) {
        return gate.ruleId() == null ? "default for " + gate.intent() : "trust rule " + gate.ruleId();
    }
}
