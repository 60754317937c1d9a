package dev.ringzero.gates;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.accounts.Caller;
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
        return gates.list(caller.accountId(), GateView.stateFilter(state)).stream().map(this::withTask).toList();
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
