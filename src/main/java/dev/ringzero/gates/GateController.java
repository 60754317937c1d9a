package dev.ringzero.gates;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.accounts.Caller;
import dev.ringzero.Refusal;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** The approval desk over REST; Tasklist shows the same gates as user tasks. */
@RestController
@RequestMapping("/api/v1/gates")
@Tag(name = "gates", description = "the approval desk: gated actions awaiting the owner")
class GateController {

    private final GateService gates;
    private final com.fasterxml.jackson.databind.ObjectMapper json;

    GateController(GateService gates, com.fasterxml.jackson.databind.ObjectMapper json) {
        this.gates = gates;
        this.json = json;
    }

    record FileGate(@NotBlank String intent, @NotNull JsonNode payload, @Size(max = 2000) String rationale,
            String gadget) {
    }

    record Decision(@Size(max = 2000) String note) {
    }

    record GateView(String id, String state, String intent, String agentId, String runId, String gadgetId,
            JsonNode payload, String payloadSha256, String rationale, String decidedBy, String decisionNote,
            JsonNode result, java.time.Instant filedAt, java.time.Instant decidedAt, java.time.Instant executingAt,
            java.time.Instant finishedAt, String ruleId, boolean auto,
            @io.swagger.v3.oas.annotations.media.Schema(description = "a pending gate's review task in Tasklist "
                    + "(its form: /camunda/app/tasklist/default/#/?task=<id>)")
            String reviewTaskId,
            @io.swagger.v3.oas.annotations.media.Schema(description = "whose gate it is") String ownerId) {

        static GateView of(Gate gate, com.fasterxml.jackson.databind.ObjectMapper json) {
            return of(gate, json, null);
        }

        static GateView of(Gate gate, com.fasterxml.jackson.databind.ObjectMapper json, String reviewTaskId) {
            try {
                Gate.Proposal proposal = gate.proposal();
                Gate.Timeline timeline = gate.timeline();
                return new GateView(gate.id(), gate.state().wire(), gate.intent(), gate.agentId(), gate.runId(),
                        proposal.gadgetId(), json.readTree(gate.payload()), proposal.payloadSha256(),
                        proposal.rationale(), gate.decision().decidedBy(), gate.decision().note(),
                        gate.result() == null ? null : json.readTree(gate.result()), timeline.filedAt(),
                        timeline.decidedAt(), timeline.executingAt(), timeline.finishedAt(), gate.ruleId(),
                        gate.auto(), reviewTaskId, gate.ownerId());
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "File a gate from the owner's direct path (the personal agent proposes, the owner disposes)")
    GateView file(Caller caller, @Valid @RequestBody FileGate body) {
        return GateView.of(gates.file(new GateService.Filing(caller.accountId(), null, null, body.intent(),
                body.gadget(), body.payload(), body.rationale(), null)), json);
    }

    @GetMapping
    @Operation(summary = "The owner's gates, optionally by state")
    List<GateView> list(Caller caller, @RequestParam(required = false) String state) {
        GateState filter = null;
        if (state != null) {
            try {
                filter = GateState.valueOf(state.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw Refusal.invalid("invalid-state", "unknown gate state '" + state + "'");
            }
        }
        return gates.list(caller.accountId(), filter).stream().map(this::withTask).toList();
    }

    @GetMapping("/{id}")
    GateView get(Caller caller, @PathVariable String id) {
        return withTask(gates.get(caller.accountId(), id));
    }

    private GateView withTask(Gate gate) {
        return GateView.of(gate, json, gates.reviewTaskId(gate).orElse(null));
    }

    @PostMapping("/{id}/approve")
    @Operation(summary = "Approve a pending gate; 409 when it is no longer pending")
    GateView approve(Caller caller, @PathVariable String id, @Valid @RequestBody(required = false) Decision body) {
        return GateView.of(gates.decideAsOwner(caller.accountId(), id, true, body == null ? null : body.note()), json);
    }

    @PostMapping("/{id}/deny")
    @Operation(summary = "Deny a pending gate; 409 when it is no longer pending")
    GateView deny(Caller caller, @PathVariable String id, @Valid @RequestBody(required = false) Decision body) {
        return GateView.of(gates.decideAsOwner(caller.accountId(), id, false, body == null ? null : body.note()), json);
    }
}
