package dev.ringzero.agents.runs;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.Schedules;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.gadgets.GadgetStore;
import org.springframework.stereotype.Service;

/**
 * The schedule side of ring 1: when an agent's schedule fires next, and what a fire does — an
 * ordinary proactive run, or, when a gadget it acts on is offline, a run recorded as
 * {@code skipped_offline} (not queued: a morning greeting at noon helps nobody).
 */
@Service
public class ScheduledRuns {

    /** What a fire did: the run it started or recorded. */
    public record Fire(String runId, boolean started) {
    }

    private final AgentService agents;
    private final GadgetStore gadgets;
    private final RunStore runs;
    private final DecisionLedger ledger;
    private final Clock clock;

    ScheduledRuns(AgentService agents, GadgetStore gadgets, RunStore runs, DecisionLedger ledger, Clock clock) {
        this.agents = agents;
        this.gadgets = gadgets;
        this.runs = runs;
        this.ledger = ledger;
        this.clock = clock;
    }

    /** The next fire strictly after {@code after} (and not in the past), or empty when no longer scheduled. */
    public Optional<Instant> next(String agentId, Instant after) {
        Instant from = after == null || after.isBefore(clock.instant()) ? clock.instant() : after;
        return agents.find(agentId).filter(current -> current.agent().enabled())
                .flatMap(current -> Schedules.nextFire(current.spec(), from));
    }

    /** The run a fire should start, or empty when it was recorded as skipped (gadget offline). */
    public Optional<RunRequest> fire(String agentId) {
        Optional<AgentService.CurrentAgent> found = agents.find(agentId).filter(c -> c.agent().enabled());
        if (found.isEmpty()) {
            return Optional.empty();
        }
        AgentService.CurrentAgent current = found.get();
        AgentSpec spec = current.spec();
        String runId = UUID.randomUUID().toString();
        String trigger = "{\"kind\":\"schedule\",\"firedAt\":\"" + clock.instant() + "\"}";
        Optional<String> offline = spec.actions().stream().map(AgentSpec.Action::gadget).filter(java.util.Objects::nonNull).distinct()
                .filter(gadget -> gadgets.find(gadget).map(row -> !row.online()).orElse(true)).findFirst();
        if (offline.isPresent()) {
            Instant now = clock.instant();
            runs.insert(new RunStore.Run(runId, agentId, current.agent().ownerId(), current.agent().currentRevision(),
                    "schedule", trigger, null, true, RunStatus.SKIPPED_OFFLINE, "gadget " + offline.get()
                    + " is offline", now, null, now), false);
            ledger.record(current.agent(), null, "schedule", "gadget_offline", "gadget " + offline.get(), runId);
            return Optional.empty();
        }
        return Optional.of(new RunRequest(runId, agentId, current.agent().ownerId(),
                current.agent().currentRevision(), "schedule", trigger, null, true));
    }
}
