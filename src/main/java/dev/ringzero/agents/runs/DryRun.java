package dev.ringzero.agents.runs;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.TriggerMatcher;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.agents.definition.StateActions;
import dev.ringzero.agents.definition.Templates;
import dev.ringzero.agents.definition.Trigger;
import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.AgentFacts;
import dev.ringzero.kernel.BudgetUsage;
import dev.ringzero.kernel.IntentRequest;
import dev.ringzero.kernel.PolicyFacts;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.Subject;
import dev.ringzero.kernel.TrustHistory;
import dev.ringzero.kernel.TrustRules;
import dev.ringzero.kernel.Verdict;
import org.springframework.stereotype.Service;

/**
 * A dry run: which trigger a (synthetic or given) trigger matches and why, each action's
 * rendered parameters, and the kernel's verdict on each as it would be now. It touches no
 * hardware and writes nothing: no {@code link.invoke}, no state, no budget. State actions are
 * played on a copy of the state, so the actions after them render as they would in the run.
 */
@Service
public class DryRun {

    /** The whole report. */
    public record Report(Map<String, Object> trigger, MatchReport match, VerdictReport admission,
            List<ActionReport> actions) {
    }

    public record MatchReport(boolean matched, Integer triggerIndex, String filter, String detail) {
    }

    public record VerdictReport(String verdict, String reason, String detail) {
    }

    public record ActionReport(int index, String gadget, String command, Map<String, Object> params,
            VerdictReport verdict, String outcome) {
    }

    static final String DRY_RUN_ID = "dry-run";
    private static final String UNSAVED = "unsaved-definition";

    private final AgentService agents;
    private final RunStore runs;
    private final PolicyKernel kernel;
    private final PolicyFacts facts;
    private final TrustRules trustRules;
    private final TrustHistory trustHistory;
    private final ObjectMapper json;
    private final Clock clock;

    DryRun(AgentService agents, RunStore runs, PolicyKernel kernel, PolicyFacts facts, TrustRules trustRules,
            TrustHistory trustHistory, ObjectMapper json, Clock clock) {
        this.agents = agents;
        this.runs = runs;
        this.kernel = kernel;
        this.facts = facts;
        this.trustRules = trustRules;
        this.trustHistory = trustHistory;
        this.json = json;
        this.clock = clock;
    }

    /** A saved agent, judged by the kernel exactly as a real run would be now. */
    public Report saved(String ownerId, String agentId, JsonNode trigger) {
        AgentService.CurrentAgent current = agents.current(ownerId, agentId);
        Subject.AgentRun subject = new Subject.AgentRun(ownerId, agentId, current.agent().currentRevision(),
                DRY_RUN_ID);
        return report(current.spec(), stateOf(current), subject, kernel, runs.usage(agentId, clock.instant()), trigger);
    }

    /** An unsaved (already validated) definition, judged as if it were saved and enabled. */
    public Report unsaved(String ownerId, AgentSpec spec, JsonNode trigger) {
        AgentFacts hypothetical = new AgentFacts(UNSAVED, ownerId, true, 1, new HashSet<>(spec.allow().commands()),
                new HashSet<>(spec.allow().intents()), new HashSet<>(spec.allow().tools()), spec.allow().physical());
        PolicyFacts overlay = new PolicyFacts() {
            @Override
            public Optional<dev.ringzero.kernel.GadgetFacts> gadget(String gadgetId) {
                return facts.gadget(gadgetId);
            }

            @Override
            public Optional<AgentFacts> agent(String agentId) {
                return UNSAVED.equals(agentId) ? Optional.of(hypothetical) : facts.agent(agentId);
            }
        };
        return report(spec, null, new Subject.AgentRun(ownerId, UNSAVED, 1, DRY_RUN_ID),
                new PolicyKernel(overlay, trustRules, trustHistory), BudgetUsage.NONE, trigger);
    }

    /** {@code current}: the saved agent's state now, or null for an unsaved definition (its initial state). */
    private Report report(AgentSpec spec, ObjectNode current, Subject.AgentRun subject, PolicyKernel judge,
            BudgetUsage usage, JsonNode given) {
        Instant now = clock.instant();
        boolean none = given == null || given.isNull() || (given.isObject() && given.isEmpty());
        Map<String, Object> trigger = none ? synthetic(spec) : DryRunTrigger.read(json, given);
        MatchReport match = match(spec, trigger, now);
        boolean proactive = !"invoke".equals(trigger.get("kind"));
        VerdictReport admission = verdict(judge.admitRun(subject, dev.ringzero.agents.KernelBudgets.of(spec), usage,
                proactive, now));
        // state writes are played on a copy, so later actions render as the run would render them
        ObjectNode state = current == null ? spec.state() : current;
        List<ActionReport> actions = new ArrayList<>();
        for (int i = 0; i < spec.actions().size(); i++) {
            AgentSpec.Action action = spec.actions().get(i);
            Map<String, Object> context = TemplateContext.of(trigger, DRY_RUN_ID, subject.revision(), subject.agentId(),
                    json.convertValue(state, new TypeReference<Map<String, Object>>() { }));
            Map<String, Object> params = Templates.renderParams(action.params(), context);
            if (action.writesState()) {
                StateActions.Applied applied = StateActions.apply(action.command(), params, state);
                if (applied instanceof StateActions.Written written) {
                    state = written.state();
                    actions.add(new ActionReport(i, null, action.command(), params,
                            new VerdictReport("allow", null, null), "skipped_dry_run"));
                } else {
                    StateActions.Refused refused = (StateActions.Refused) applied;
                    actions.add(new ActionReport(i, null, action.command(), params,
                            new VerdictReport("deny", refused.code(), refused.message()), "skipped_dry_run"));
                }
                continue;
            }
            Verdict verdict = action.isPlatform()
                    ? judge.decide(new IntentRequest(subject, action.command(), params, now))
                    : judge.decide(new ActionRequest(subject, action.gadget(), action.command(), params,
                            proactive ? Priority.PROACTIVE : Priority.EXPLICIT, now));
            actions.add(new ActionReport(i, action.gadget(), action.command(), params, verdict(verdict),
                    "skipped_dry_run"));
        }
        return new Report(trigger, match, admission, actions);
    }

    private ObjectNode stateOf(AgentService.CurrentAgent current) {
        try {
            JsonNode state = json.readTree(current.agent().state());
            return state != null && state.isObject() ? (ObjectNode) state : json.createObjectNode();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return json.createObjectNode();
        }
    }

    /** The first trigger of the spec, as a plausible occurrence (an event carries its filter's data). */
    private Map<String, Object> synthetic(AgentSpec spec) {
        Map<String, Object> trigger = new LinkedHashMap<>();
        Trigger first = spec.triggers().get(0);
        trigger.put("kind", first.kind());
        if (first instanceof Trigger.GadgetEventTrigger event) {
            trigger.put("gadget", Map.of("id", event.gadget()));
            trigger.put("event", Map.of("id", "dry-run-event", "name", event.event(), "data", event.when().data(),
                    "receivedAt", clock.instant().toString()));
        }
        return trigger;
    }

    @SuppressWarnings("unchecked")
    private MatchReport match(AgentSpec spec, Map<String, Object> trigger, Instant now) {
        Object kind = trigger.get("kind");
        if (!Trigger.GADGET_EVENT.equals(kind)) {
            boolean declared = spec.triggers().stream().anyMatch(t -> t.kind().equals(kind));
            return new MatchReport(declared, null, declared ? null : "kind", "the agent has no " + kind + " trigger");
        }
        Map<String, Object> gadget = (Map<String, Object>) trigger.getOrDefault("gadget", Map.of());
        Map<String, Object> event = (Map<String, Object>) trigger.getOrDefault("event", Map.of());
        TriggerMatcher.Match match = TriggerMatcher.evaluate(spec, String.valueOf(gadget.get("id")),
                String.valueOf(event.get("name")), (Map<String, Object>) event.getOrDefault("data", Map.of()), now);
        if (match instanceof TriggerMatcher.Matched matched) {
            return new MatchReport(true, matched.triggerIndex(), null, null);
        }
        if (match instanceof TriggerMatcher.FilteredOut filtered) {
            return new MatchReport(false, null, filtered.filter(), filtered.detail());
        }
        return new MatchReport(false, null, "trigger", "no gadget.event trigger for this gadget and event");
    }

    private static VerdictReport verdict(Verdict verdict) {
        if (verdict instanceof Verdict.Deny deny) {
            return new VerdictReport("deny", deny.reason().wire(), deny.detail());
        }
        if (verdict instanceof Verdict.OverBudget over) {
            return new VerdictReport("over_budget", over.budget(), String.valueOf(over.nextEligibleAt()));
        }
        if (verdict instanceof Verdict.Gate gate) {
            return new VerdictReport("gate", gate.ruleId() == null ? "default" : gate.ruleId(), null);
        }
        return new VerdictReport("allow", null, null);
    }
}
