package dev.ringzero.gates;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.ringzero.kernel.Subject;
import dev.ringzero.kernel.TrustHistory;
import dev.ringzero.kernel.TrustLadder;
import dev.ringzero.kernel.TrustRule;
import dev.ringzero.kernel.TrustRules;
import org.springframework.stereotype.Component;

/**
 * What every way a run asks for a ring-3 intent shares once the kernel has spoken: the trust rule
 * that decided (named for the record; the kernel already decided) and the trace of a refusal.
 */
@Component
class IntentRefusals {

    private final TrustRules trustRules;
    private final TrustHistory trustHistory;
    private final Audit audit;
    private final Journal journal;

    IntentRefusals(TrustRules trustRules, TrustHistory trustHistory, Audit audit, Journal journal) {
        this.trustRules = trustRules;
        this.trustHistory = trustHistory;
        this.audit = audit;
        this.journal = journal;
    }

    /** A refused intent: audited, and on the agent's journal so it can see what became of it. */
    void refused(Subject.AgentRun run, String intent, String reason, String detail, String ruleId) {
        audit.append(run.accountId(), run.agentId(), run.runId(), null, intent, Audit.Disposition.REFUSED,
                ruleId == null ? "kernel" : "trust-rule:" + ruleId, ruleId, reason + ": " + detail);
        journal.append(run.agentId(), run.accountId(), Journal.Actor.KERNEL, "envelope.refused", null, run.runId(),
                "Refused " + intent + " (" + reason + ")", null);
    }

    /** The rule the ladder applied (for the record); the kernel already decided, this only names it. */
    Optional<String> decidingRule(Subject.AgentRun run, String intent, Map<String, Object> payload, Instant now) {
        List<TrustRule> own = trustRules.rulesOf(run.accountId()).stream()
                .filter(rule -> rule.ownerId().equals(run.accountId())).toList();
        return TrustLadder.evaluate(own, run.agentId(), intent, payload, trustHistory, now).ruleId();
    }
}
