package dev.ringzero.gates;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.kernel.CommandKind;
import dev.ringzero.kernel.IntentRequest;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.kernel.Subject;
import dev.ringzero.kernel.Verdict;
import dev.ringzero.Refusal;
import org.springframework.stereotype.Service;

/**
 * Action envelopes: how a run asks for a ring-3 intent ({@code email.send}, {@code webhook.post})
 * it must never perform itself. The subject is the run (the caller builds it from the run record,
 * never from the envelope); the kernel decides (standing, the {@code allow.intents} grant, the trust
 * ladder) and the answer comes back at once: {@code done} (auto: executed now, with its result),
 * {@code pending} (a gate was filed; the run goes on, it never waits for a human) or {@code denied}.
 */
@Service
public class Envelopes {

    /** The answer to one envelope. */
    public sealed interface Answer {
        String status();
    }

    /** Executed now by the trust ladder's leave; {@code state} is executed or failed. */
    public record Done(String gateId, String state, JsonNode result) implements Answer {
        @Override
        public String status() {
            return "done";
        }
    }

    /** A gate was filed; the outcome reaches the agent through its journal (and a continuation). */
    public record Pending(String gateId) implements Answer {
        @Override
        public String status() {
            return "pending";
        }
    }

    /** Refused; {@code reason} is a stable code (the kernel's deny reason, or an envelope problem). */
    public record Denied(String reason, String detail) implements Answer {
        @Override
        public String status() {
            return "denied";
        }
    }

    private final PolicyKernel kernel;
    private final GateService gates;
    private final IntentRefusals refusals;
    private final ObjectMapper json;
    private final Clock clock;

    Envelopes(PolicyKernel kernel, GateService gates, IntentRefusals refusals, ObjectMapper json, Clock clock) {
        this.kernel = kernel;
        this.gates = gates;
        this.refusals = refusals;
        this.json = json;
        this.clock = clock;
    }

    /** Call outside a transaction: an auto-executed intent commits its trace before it acts. */
    public Answer submitEnvelope(Subject.AgentRun run, String intent, JsonNode payload, String rationale) {
        if (intent == null || intent.isBlank() || CommandKind.of(intent) != CommandKind.RING3) {
            return new Denied("not_an_integration", "an envelope carries a ring-3 intent such as email.send or "
                    + "webhook.post; device commands are the run's own actions");
        }
        if (gates.executorFor(intent).isEmpty()) {
            return new Denied("unknown_intent", "no executor for intent '" + intent + "'");
        }
        if (payload == null || !payload.isObject()) {
            return new Denied("invalid_payload", "the payload must be a JSON object");
        }
        Map<String, Object> fields = json.convertValue(payload, new TypeReference<LinkedHashMap<String, Object>>() { });
        Instant now = clock.instant();
        Verdict verdict = kernel.decide(new IntentRequest(run, intent, fields, now));
        GateService.Filing filing;
        try {
            if (verdict instanceof Verdict.Gate gate) {
                filing = new GateService.Filing(run.accountId(), run.agentId(), run.runId(), intent, null, payload,
                        rationale, gate.ruleId());
                return new Pending(gates.file(filing).id());
            }
            if (verdict instanceof Verdict.Allow) {
                filing = new GateService.Filing(run.accountId(), run.agentId(), run.runId(), intent, null, payload,
                        rationale, decidingRule(run, intent, fields, now).orElse(null));
                Gate done = gates.executeAuto(filing);
                return new Done(done.id(), done.state().wire(), tree(done.result()));
            }
        } catch (Refusal problem) {
            return refused(run, intent, "invalid_payload", problem.getMessage(), null);
        }
        if (verdict instanceof Verdict.Deny deny) {
            String rule = deny.reason() == dev.ringzero.kernel.DenyReason.TRUST_DENY
                    ? decidingRule(run, intent, fields, now).orElse(null) : null;
            return refused(run, intent, deny.reason().wire(), deny.detail(), rule);
        }
        Verdict.OverBudget over = (Verdict.OverBudget) verdict;
        return refused(run, intent, "over_budget", over.budget(), null);
    }

    private Answer refused(Subject.AgentRun run, String intent, String reason, String detail, String ruleId) {
        refusals.refused(run, intent, reason, detail, ruleId);
        return new Denied(reason, detail);
    }

    private Optional<String> decidingRule(Subject.AgentRun run, String intent, Map<String, Object> payload,
            Instant now) {
        return refusals.decidingRule(run, intent, payload, now);
    }

    private JsonNode tree(String text) {
        try {
            return text == null ? null : json.readTree(text);
        } catch (JsonProcessingException e) {
            return json.getNodeFactory().textNode(text);
        }
    }
}
