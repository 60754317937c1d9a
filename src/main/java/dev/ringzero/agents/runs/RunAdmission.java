package dev.ringzero.agents.runs;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.ringzero.agents.KernelBudgets;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.kernel.Subject;
import dev.ringzero.kernel.Verdict;

/**
 * Admits a run (step {@code Task_AdmitRun}): under the agent's lock, asks the kernel about standing
 * and budgets from the durable counters, lets {@link AdmissionPolicy} decide, and records the run,
 * the runs a restart cancels and the decision ledger's entry.
 */
final class RunAdmission {

    private final RunStore runs;
    private final RunAgents agents;
    private final PolicyKernel kernel;
    private final java.util.function.BooleanSupplier modelConfigured;
    private final Clock clock;

    RunAdmission(RunStore runs, RunAgents agents, PolicyKernel kernel, java.util.function.BooleanSupplier modelConfigured,
            Clock clock) {
        this.runs = runs;
        this.agents = agents;
        this.kernel = kernel;
        this.modelConfigured = modelConfigured;
        this.clock = clock;
    }

    /**
     * Decides whether the run may start. Holds the agent's row lock until the transaction ends, so
     * concurrent triggers are admitted one at a time against the same durable counters.
     */
    AgentRuns.Admission admit(RunRequest request) {
        agents.lock(request.agentId()); // admissions of one agent run one at a time
        // read the clock only once the lock is held, so no admitted run can be "later" than now
        Instant now = clock.instant();
        AgentSpec spec = agents.spec(request.agentId(), request.revision());
        Subject.AgentRun subject = new Subject.AgentRun(request.ownerId(), request.agentId(), request.revision(),
                request.runId());
        RunStore.Standing standing = runs.standing(request.agentId(), now);
        Verdict verdict = kernel.admitRun(subject, KernelBudgets.of(spec), standing.usage(), request.proactive(), now);
        AgentRuns.Admission admission = spec.kind() == AgentSpec.Kind.LLM && verdict instanceof Verdict.Allow
                && !modelConfigured.getAsBoolean() ? AdmissionPolicy.unconfigured()
                : AdmissionPolicy.decide(verdict, spec, () -> slotHolders(spec, standing), now);
        // the row is written once, as admission leaves it (an admitted run recorded running)
        runs.insert(new RunStore.Run(request.runId(), request.agentId(), request.ownerId(), request.revision(),
                request.triggerKind(), request.triggerData(), request.eventId(), request.proactive(),
                admission.recorded(), admission.reason(), now,
                admission.recorded() == RunStatus.RUNNING ? now : null, admission.ends() ? now : null),
                admission.counted());
        for (String cancelled : admission.cancelRuns()) {
            runs.end(cancelled, RunStatus.DROPPED_CONCURRENCY, "restarted by run " + request.runId(), now);
        }
        if (!"invoke".equals(request.triggerKind())) {
            runs.decide(UUID.randomUUID().toString(), request.agentId(), request.ownerId(), request.eventId(),
                    request.triggerKind(), AdmissionPolicy.ledgerReason(admission.status()), admission.reason(),
                    request.runId(), now);
        }
        return admission;
    }

    /**
     * The agent's active runs that hold a slot for a run of {@code spec}: all of them, except that
     * a run waits in the queue only behind runs that hand the turn on as they end (of a revision
     * that queues, see {@link RunEnding#handingOn}); a run of an older revision that did not queue
     * hands nothing on, so waiting behind it would be waiting forever.
     */
    private List<RunStore.Run> slotHolders(AgentSpec spec, RunStore.Standing standing) {
        return spec.concurrency() != AgentSpec.Concurrency.QUEUED ? standing.active()
                : RunEnding.handingOn(agents, standing.active());
    }

    /**
     * A cooling run's timer fired (step {@code Task_AdmitAgain}): asks the kernel again, under the
     * agent's lock as {@link #admit} does, and moves the run on to what that decides. Another
     * trigger may have taken the slot the cooldown opened, so the run may cool again, still bound
     * by when its own trigger arrived. A run fenced while it cooled stays ended.
     */
    AgentRuns.Admission readmit(String runId) {
        AgentRuns.Admission notCooling = new AgentRuns.Admission(RunStatus.FENCED, "no longer cooling", List.of());
        RunStore.Run run = runs.find(runId).filter(found -> found.status() == RunStatus.COOLING).orElse(null);
        if (run == null) {
            return notCooling;
        }
        agents.lock(run.agentId());
        Instant now = clock.instant();
        AgentSpec spec = agents.spec(run.agentId(), run.revision());
        RunStore.Standing standing = runs.standing(run.agentId(), now);
        Verdict verdict = kernel.admitRun(new Subject.AgentRun(run.ownerId(), run.agentId(), run.revision(), run.id()),
                KernelBudgets.of(spec), standing.usage(), run.proactive(), now);
        AgentRuns.Admission admission = AdmissionPolicy.decide(verdict, spec, () -> slotHolders(spec, standing),
                run.createdAt());
        // the row read above may predate the lock (and this transaction keeps what it read), so the
        // update itself decides: it takes only a run still cooling, and a fence that committed
        // while this waited for the lock wins
        return runs.readmitted(runId, run.agentId(), admission, now) ? admission : notCooling;
    }
}
