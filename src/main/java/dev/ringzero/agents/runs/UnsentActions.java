package dev.ringzero.agents.runs;

import java.time.Clock;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.StoredJson;
import dev.ringzero.dispatch.Dispatcher;
import dev.ringzero.dispatch.Outcome;
import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.Verdict;

/**
 * Settles an action that did not leave: held by the trust ladder (a gate is filed and the action
 * is {@code gated}; the run goes on), refused by the kernel ({@code denied}, audited; a fence ends
 * the run), or left behind by a run that is no longer running.
 */
final class UnsentActions {

    private final RunStore runs;
    private final GateDesk gates;
    private final ObjectMapper json;
    private final Clock clock;

    UnsentActions(RunStore runs, GateDesk gates, ObjectMapper json, Clock clock) {
        this.runs = runs;
        this.gates = gates;
        this.json = json;
        this.clock = clock;
    }

    /** Records what the kernel said to {@code request}, the action's dispatch that did not leave. */
    void settle(RunStore.Run run, RunStore.Action action, ActionRequest request, Dispatcher.NotSent notSent) {
        if (notSent.verdict() instanceof Verdict.Gate gate) {
            String gateId = gates.fileForRun(run.ownerId(), run.agentId(), run.id(), action.gadgetId(),
                    action.command(), request.params(), gate.ruleId());
            runs.actionEnded(run.id(), action.index(), "gate", "gated", null,
                    StoredJson.write(json, Map.of("gate", gateId)), clock.instant());
            return;
        }
        Outcome outcome = notSent.outcome();
        String code = outcome instanceof Outcome.Denied denied ? denied.reason() : outcome.status();
        runs.actionEnded(run.id(), action.index(), notSent.verdict().wire(), "denied", code, null, clock.instant());
        gates.refused(run.ownerId(), run.agentId(), run.id(), action.command(), code);
        if (notSent.verdict() instanceof Verdict.Deny deny && deny.reason().isFence()) {
            runs.end(run.id(), RunStatus.FENCED, deny.reason().wire(), clock.instant());
        }
    }

    /** A run fenced or ended meanwhile sends none of its remaining actions: each is denied. */
    void denyRemaining(RunStore.Run run) {
        for (RunStore.Action left : runs.actions(run.id())) {
            if (left.outcome() == null) {
                runs.actionEnded(run.id(), left.index(), "deny", "denied", "run_" + run.status().wire(), null,
                        clock.instant());
            }
        }
    }
}
