package dev.ringzero.gates;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.Refusal;
import dev.ringzero.agents.runs.GateDesk;
import dev.ringzero.kernel.IntentRequest;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.kernel.Subject;
import dev.ringzero.kernel.Verdict;
import org.springframework.stereotype.Component;

/**
 * A rules run's ring-3 action, the counterpart of {@link Envelopes} for a step that runs inside the
 * engine's transaction: the same kernel decision and the same gates, but an auto-approved intent
 * is executed only after the step commits ({@link AutoExecution#executeAfterCommit}), so a step the
 * engine rolls back and retries never sends an email twice.
 */
@Component
class RunIntents {

    private final PolicyKernel kernel;
    private final GateFiling filing;
    private final AutoExecution auto;
    private final IntentRefusals refusals;
    private final ObjectMapper json;
    private final Clock clock;

    RunIntents(PolicyKernel kernel, GateFiling filing, AutoExecution auto, IntentRefusals refusals, ObjectMapper json,
            Clock clock) {
        this.kernel = kernel;
        this.filing = filing;
        this.auto = auto;
        this.refusals = refusals;
        this.json = json;
        this.clock = clock;
    }

    GateDesk.IntentFiled file(Subject.AgentRun run, String intent, Map<String, Object> payload) {
        Instant now = clock.instant();
        Verdict verdict = kernel.decide(new IntentRequest(run, intent, payload, now));
        String rationale = "agent run " + run.runId() + " asked for " + intent;
        try {
            if (verdict instanceof Verdict.Gate gate) {
                return new GateDesk.Gated(filing.file(filingOf(run, intent, payload, rationale, gate.ruleId())).id());
            }
            if (verdict instanceof Verdict.Allow) {
                String rule = refusals.decidingRule(run, intent, payload, now).orElse(null);
                return new GateDesk.Accepted(auto.executeAfterCommit(filingOf(run, intent, payload, rationale, rule))
                        .id());
            }
        } catch (Refusal problem) {
            return refused(run, intent, "invalid_payload", problem.getMessage(), null);
        }
        if (verdict instanceof Verdict.Deny deny) {
            String rule = deny.reason() == dev.ringzero.kernel.DenyReason.TRUST_DENY
                    ? refusals.decidingRule(run, intent, payload, now).orElse(null) : null;
            return refused(run, intent, deny.reason().wire(), deny.detail(), rule);
        }
        Verdict.OverBudget over = (Verdict.OverBudget) verdict;
        return refused(run, intent, "over_budget", over.budget(), null);
    }

    private GateService.Filing filingOf(Subject.AgentRun run, String intent, Map<String, Object> payload,
            String rationale, String ruleId) {
        return new GateService.Filing(run.accountId(), run.agentId(), run.runId(), intent, null,
                json.valueToTree(payload), rationale, ruleId);
    }

    private GateDesk.Refused refused(Subject.AgentRun run, String intent, String reason, String detail,
            String ruleId) {
        refusals.refused(run, intent, reason, detail, ruleId);
        return new GateDesk.Refused(reason, detail);
    }
}
