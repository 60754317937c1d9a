package dev.ringzero.kernel;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The single decision point of ring 0: every device command and every intent is decided here, at
 * execution time, from facts read now. Nothing else in RingZero may dispatch without an
 * {@link Verdict.Allow} from this class.
 *
 * <p>{@link #decide(ActionRequest)} runs its checks in this order; the first failure answers, so the
 * most fundamental reason wins and no answer reveals more than the asker may know:
 * <ol>
 *   <li>Agent runs only: the run still stands — {@code agent_unknown} (missing or another account's),
 *       {@code agent_disabled}, {@code revision_stale}. These fence the run whatever else is true (an
 *       offline gadget must not turn a fenced run into {@code skipped_offline}), and they say nothing
 *       about the gadget.</li>
 *   <li>{@code not_found}: the gadget is unknown or another account's — before any gadget state, so
 *       another owner's gadget looks the same whether it is offline, unpaired or missing.</li>
 *   <li>{@code unpaired}: a fence.</li>
 *   <li>{@code privileged}: {@code device.ota}, {@code device.discover}, {@code device.unpair} are for no
 *       agent and no client, whatever the grants say.</li>
 *   <li>Agent runs only: {@code not_allowed}, then {@code physical_not_granted} — the agent's grants,
 *       before transient device state, so a revoked grant fences instead of skipping.</li>
 *   <li>{@code unregistered_command}: the gadget does not offer the command now.</li>
 *   <li>{@code offline}.</li>
 *   <li>{@code quiet_hours}: background sound ({@link CommandKind#SOUND}) inside the gadget's quiet
 *       window, unless the effective priority is exempt (the person's interaction or an approved
 *       gate). The effective priority is the requested one capped at the subject's
 *       {@link Subject#ceiling()}, so an agent cannot claim to be the person.</li>
 *   <li>Agent runs only: the trust ladder — {@code trust_deny}, a {@link Verdict.Gate}, or allow. Last,
 *       so a gate is filed only for something that could run right now, and nobody is asked at night
 *       to approve sound that quiet hours would refuse anyway.</li>
 * </ol>
 * The owner's direct path and approved gates skip the agent checks and the ladder: the person, or a
 * human approval of exactly this action, is the authority.
 *
 * <p>{@link #decide(IntentRequest)} covers envelopes: privileged first, then for agent runs the same
 * standing and grant checks and the trust ladder. A device command it allows still passes
 * {@link #decide(ActionRequest)} when it is dispatched.
 *
 * <p>{@link #admitRun} admits a run: standing first (a disabled agent's trigger is fenced, not rate
 * limited), then {@link Budgets}.
 */
public final class PolicyKernel {

    private final PolicyFacts facts;
    private final TrustRules trustRules;
    private final TrustHistory trustHistory;

    public PolicyKernel(PolicyFacts facts, TrustRules trustRules, TrustHistory trustHistory) {
        this.facts = Objects.requireNonNull(facts, "facts");
        this.trustRules = Objects.requireNonNull(trustRules, "trustRules");
        this.trustHistory = Objects.requireNonNull(trustHistory, "trustHistory");
    }

    /** Whether this device command may be sent now. */
    public Verdict decide(ActionRequest request) {
        Subject subject = request.subject();
        Optional<AgentFacts> agent = Optional.empty();
        if (subject instanceof Subject.AgentRun run) {
            agent = AgentChecks.agentOf(facts, run);
            Optional<Verdict> refused = AgentChecks.standing(run, agent);
            if (refused.isPresent()) {
                return refused.get();
            }
        }
        Optional<GadgetFacts> found = facts.gadget(request.gadgetId())
                .filter(gadget -> gadget.ownerId().equals(subject.accountId()));
        if (found.isEmpty()) {
            return deny(DenyReason.NOT_FOUND, "no gadget " + request.gadgetId());
        }
        GadgetFacts gadget = found.get();
        String command = request.command();
        CommandKind kind = CommandKind.of(command);
        if (!gadget.paired()) {
            return deny(DenyReason.UNPAIRED, "gadget " + gadget.id() + " is not paired");
        }
        if (kind == CommandKind.PRIVILEGED) {
            return deny(DenyReason.PRIVILEGED, command + " is reserved to the platform");
        }
        if (agent.isPresent()) {
            Optional<Verdict> refused = AgentChecks.commandGrant(agent.get(), command, kind);
            if (refused.isPresent()) {
                return refused.get();
            }
        }
        if (!gadget.registeredCommands().contains(command)) {
            return deny(DenyReason.UNREGISTERED_COMMAND, "gadget " + gadget.id() + " does not offer " + command);
        }
        if (!gadget.online()) {
            return deny(DenyReason.OFFLINE, "gadget " + gadget.id() + " is offline");
        }
        if (kind == CommandKind.SOUND && inQuietHours(gadget, request)) {
            return deny(DenyReason.QUIET_HOURS, "gadget " + gadget.id() + " is in quiet hours");
        }
        if (subject instanceof Subject.AgentRun run) {
            return ladder(run, command, request.params(), request.at());
        }
        return Verdict.ALLOW;
    }

    /** Whether this intent may execute now, must be gated, or is refused. */
    public Verdict decide(IntentRequest request) {
        String intent = request.intent();
        CommandKind kind = CommandKind.of(intent);
        if (kind == CommandKind.PRIVILEGED) {
            return deny(DenyReason.PRIVILEGED, intent + " is reserved to the platform");
        }
        if (!(request.subject() instanceof Subject.AgentRun run)) {
            return Verdict.ALLOW;
        }
        Optional<AgentFacts> agent = AgentChecks.agentOf(facts, run);
        Optional<Verdict> refused = AgentChecks.standing(run, agent)
                .or(() -> AgentChecks.intentGrant(agent.orElseThrow(), intent, kind));
        return refused.orElseGet(() -> ladder(run, intent, request.payload(), request.at()));
    }

    /**
     * Whether a run may call this platform tool now (an {@code llm} run's {@code state.get},
     * {@code calendar.today}, ...): the run must still stand and the agent hold the tool's grant.
     * Tools read or write only the agent's own data, so no trust ladder applies.
     */
    public Verdict decideTool(Subject.AgentRun run, String tool) {
        Require.text(tool, "tool");
        Optional<AgentFacts> agent = AgentChecks.agentOf(facts, run);
        return AgentChecks.standing(run, agent).or(() -> AgentChecks.toolGrant(agent.orElseThrow(), tool))
                .orElse(Verdict.ALLOW);
    }

    /**
     * A rules run's write to its own agent's state: the agent's state touches nothing outside it, so
     * no grant is asked for; the run must still stand (a disabled or revised agent writes nothing).
     */
    public Verdict decideStateWrite(Subject.AgentRun run) {
        return AgentChecks.standing(run, AgentChecks.agentOf(facts, run)).orElse(Verdict.ALLOW);
    }

    /**
     * Whether a run of this agent may start: the run must still stand, then proactive work must be within
     * {@code budget} given the durably counted {@code usage}; work a person asked for is never held back
     * by budgets.
     */
    public Verdict admitRun(Subject.AgentRun subject, Budget budget, BudgetUsage usage, boolean proactive,
            Instant now) {
        return AgentChecks.standing(subject, AgentChecks.agentOf(facts, subject))
                .orElseGet(() -> Budgets.admit(budget, usage, proactive, now));
    }

    private boolean inQuietHours(GadgetFacts gadget, ActionRequest request) {
        Priority effective = request.priority().cappedAt(request.subject().ceiling());
        return !effective.exemptFromQuietHours()
                && gadget.quietHours().map(quiet -> quiet.contains(request.at())).orElse(false);
    }

    private Verdict ladder(Subject.AgentRun run, String intent, Map<String, Object> payload, Instant at) {
        List<TrustRule> ownRules = trustRules.rulesOf(run.accountId()).stream()
                .filter(rule -> rule.ownerId().equals(run.accountId()))
                .toList();
        return TrustLadder.evaluate(ownRules, run.agentId(), intent, payload, trustHistory, at).verdict();
    }

    private static Verdict deny(DenyReason reason, String detail) {
        return new Verdict.Deny(reason, detail);
    }
}
