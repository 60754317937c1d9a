package dev.ringzero.router;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.accounts.Caller;
import dev.ringzero.gadgets.GadgetStore;
import dev.ringzero.Refusal;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The second door to event admission, for external gateways: only a gateway service credential
 * may call it (the authentication filter enforces that). The owner is the gadget's, from its
 * pairing; nothing in the body can name one.
 */
@RestController
@Tag(name = "events", description = "event admission for external gateways (gateway service credential only)")
class EventController {

    private final GadgetStore gadgets;
    private final EventAdmission admission;

    EventController(GadgetStore gadgets, EventAdmission admission) {
        this.gadgets = gadgets;
        this.admission = admission;
    }

    record EventRequest(@NotBlank @Size(max = 64) String gadgetId, @NotBlank @Size(max = 64) String id,
            @NotBlank @Pattern(regexp = "^[a-z][a-z0-9_.]{0,63}$") String event, JsonNode data) {
    }

    record Admission(String result, String eventId, String reason) {
    }

    @PostMapping("/api/v1/gadgets/events")
    @Operation(summary = "Admit a structured event (same admission as MQTT link.event, without a board's clock): "
            + "202 admitted, 200 duplicate")
    ResponseEntity<Admission> admit(Caller caller, @Valid @RequestBody EventRequest body) {
        if (body.data() != null && !body.data().isObject()) {
            throw Refusal.invalid("invalid-event", "data must be a JSON object");
        }
        GadgetStore.Row gadget = gadgets.find(body.gadgetId()).filter(GadgetStore.Row::paired)
                .orElseThrow(() -> Refusal.notFound("gadget"));
        EventAdmission.Result result = admission.admitAndRoute(new IncomingEvent(gadget.id(), gadget.ownerId(),
                body.id(), body.event(), body.data(), "rest"));
        if (result instanceof EventAdmission.Admitted admitted) {
            return ResponseEntity.status(HttpStatus.ACCEPTED).body(new Admission("admitted", admitted.eventId(), null));
        }
        return ResponseEntity.ok(new Admission("duplicate", null, ((EventAdmission.Duplicate) result).reason()));
    }
}
