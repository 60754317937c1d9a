package dev.ringzero.gates;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.stereotype.Component;

/**
 * Ends an {@code executing} gate by what its executor reported: done → {@code executed}; failed, or
 * no attempt at all → {@code failed}; still in flight → it stays executing, for as long as the
 * answer may take. Only the settlement that wins the compare-and-set audits, journals and wakes
 * the agent; a gate someone else settled first is left as it is.
 */
@Component
class GateSettlement {

    static final String NOT_STARTED = "{\"outcome\":\"failed\",\"error\":\"not_started\"}";

    private final GateStore store;
    private final Audit audit;
    private final Journal journal;
    private final GateResolved resolved;
    private final ObjectMapper json;
    private final Clock clock;

    GateSettlement(GateStore store, Audit audit, Journal journal, GateResolved resolved, ObjectMapper json,
            Clock clock) {
        this.store = store;
        this.audit = audit;
        this.journal = journal;
        this.resolved = resolved;
        this.json = json;
        this.clock = clock;
    }

    /** Empty when the gate is settled; otherwise how long to wait for the device's answer. */
    Optional<Duration> apply(Gate gate, Execution execution) {
        if (execution instanceof Execution.InFlight inFlight) {
            return Optional.of(inFlight.answerWithin());
        }
        if (execution instanceof Execution.Done done) {
            finish(gate, GateState.EXECUTED, done.result());
        } else if (execution instanceof Execution.Failed failed) {
            finish(gate, GateState.FAILED, failed.result());
        } else {
            finish(gate, GateState.FAILED, NOT_STARTED);
        }
        return Optional.empty();
    }

    private void finish(Gate gate, GateState to, String result) {
        if (!store.transition(gate.id(), GateState.EXECUTING, to, result, clock.instant())) {
            return; // someone else settled it first
        }
        Gate ended = store.find(gate.id()).orElseThrow();
        Audit.Disposition disposition = to == GateState.FAILED ? Audit.Disposition.FAILED
                : ended.auto() ? Audit.Disposition.AUTO_EXECUTED : Audit.Disposition.EXECUTED;
        audit.record(ended, disposition, ended.decider(), result);
        journal.append(ended.agentId(), ended.ownerId(), Journal.Actor.EXECUTOR, "gate." + to.wire(), ended.id(),
                ended.runId(), (to == GateState.EXECUTED ? "Executed " : "Failed: ") + ended.intent()
                        + summary(result), result);
        resolved.resolved(ended);
    }

    /** " (outcome: message)" from a result, or nothing when it names no outcome. */
    private String summary(String result) {
        try {
            JsonNode node = json.readTree(result);
            String outcome = node.path("outcome").asText("");
            String detail = node.path("message").asText(node.path("reason").asText(""));
            return outcome.isEmpty() ? "" : " (" + outcome + (detail.isEmpty() ? "" : ": " + detail) + ")";
        } catch (JsonProcessingException | RuntimeException e) {
            return "";
        }
    }
}
