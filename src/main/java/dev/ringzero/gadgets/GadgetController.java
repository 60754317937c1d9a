package dev.ringzero.gadgets;

import java.util.List;
import java.util.Map;

import dev.ringzero.accounts.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/gadgets")
@Tag(name = "gadgets", description = "pairing, presence, registered capabilities, and the owner's direct command path")
class GadgetController {

    private final GadgetService pairing;
    private final GadgetListings listings;

    GadgetController(GadgetService pairing, GadgetListings listings) {
        this.pairing = pairing;
        this.listings = listings;
    }

    record PairRequest(@NotBlank String id, @Size(max = 200) String name) {
    }

    record QuietHoursRequest(String from, String to, String timeZone) {
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "Pair a gadget to the caller's account; the MQTT password is returned once")
    GadgetService.Pairing pair(Caller caller, @Valid @RequestBody PairRequest body) {
        return pairing.pair(caller.accountId(), body.id(), body.name());
    }

    @GetMapping
    @Operation(summary = "The caller's gadgets with online state, registered commands, events and capabilities")
    List<GadgetListings.GadgetListing> list(Caller caller) {
        return listings.list(caller.accountId());
    }

    @GetMapping("/{id}")
    GadgetListings.GadgetListing get(Caller caller, @PathVariable String id) {
        return listings.get(caller.accountId(), id);
    }

    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(summary = "Unpair: revoke the credential, notify the device, close its connection, fence its work")
    void unpair(Caller caller, @PathVariable String id) {
        pairing.unpair(caller.accountId(), id);
    }

    @PutMapping("/{id}/quiet-hours")
    @Operation(summary = "Set (or clear, with nulls) the gadget's quiet hours: background sound is suppressed")
    Map<String, Object> quietHours(Caller caller, @PathVariable String id, @RequestBody QuietHoursRequest body) {
        return pairing.quietHours(caller.accountId(), id, body.from(), body.to(), body.timeZone());
    }
}
