package dev.ringzero.gadgets;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.accounts.Caller;
import dev.ringzero.gateway.Dispatcher;
import dev.ringzero.gateway.Outcome;
import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.Claim;
import dev.ringzero.kernel.CommandKind;
import dev.ringzero.policy.SpeakerFloor;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.Subject;
import dev.ringzero.web.ApiProblem;
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
    private final GadgetRegistry registry;
    private final GadgetStore store;
    private final Dispatcher dispatcher;
    private final SpeakerFloor floor;
    private final Clock clock;

    GadgetController(GadgetService pairing, GadgetRegistry registry, GadgetStore store, Dispatcher dispatcher,
            SpeakerFloor floor, Clock clock) {
        this.floor = floor;
        this.pairing = pairing;
        this.registry = registry;
        this.store = store;
        this.dispatcher = dispatcher;
        this.clock = clock;
    }

    record PairRequest(@NotBlank String id, @Size(max = 200) String name) {
    }

    record CommandRequest(@NotBlank String command, Map<String, Object> params) {
    }

    record QuietHoursRequest(String from, String to, String timeZone) {
    }

    /** A gadget as its owner sees it: presence, what it registered, and its capabilities. */
    record GadgetListing(String id, String name, boolean online, Instant lastSeen, Instant pairedAt,
            Instant registeredAt, Map<String, CommandSpec> commands, List<Registration.EventSpec> events,
            JsonNode capabilities) {
    }

    record CommandResult(String invocationId, String outcome, JsonNode payload, String errorCode, String message) {
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "Pair a gadget to the caller's account; the MQTT password is returned once")
    GadgetService.Pairing pair(Caller caller, @Valid @RequestBody PairRequest body) {
        return pairing.pair(caller.accountId(), body.id(), body.name());
    }

    @GetMapping
    @Operation(summary = "The caller's gadgets with online state, registered commands, events and capabilities")
    List<GadgetListing> list(Caller caller) {
        return store.listPaired(caller.accountId()).stream().map(this::listing).toList();
    }

    @GetMapping("/{id}")
    GadgetListing get(Caller caller, @PathVariable String id) {
        return store.find(id).filter(GadgetStore.Row::paired).filter(row -> row.ownerId().equals(caller.accountId()))
                .map(this::listing).orElseThrow(() -> ApiProblem.notFound("gadget"));
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

    @PostMapping("/{id}/commands")
    @Operation(summary = "The owner's direct command path: same kernel checks, priority over background agents",
            description = "A moving command while another mover (an agent, an approved gate) holds the gadget "
                    + "answers 409 mover-busy and is not sent: one mover at a time. A stop always passes and frees "
                    + "the gadget.")
    CommandResult command(Caller caller, @PathVariable String id, @Valid @RequestBody CommandRequest body) {
        ActionRequest request = new ActionRequest(new Subject.Owner(caller.accountId()), id, body.command(),
                body.params(), Priority.INTERACTION, clock.instant());
        Outcome outcome = CommandKind.of(body.command()) == CommandKind.SOUND ? speakNow(request)
                : dispatcher.invokeAndWait(request, "direct");
        if (outcome instanceof Outcome.Offline) {
            throw ApiProblem.conflict("gadget-offline", "gadget '" + id + "' is offline; nothing was sent");
        }
        if (outcome instanceof Outcome.Denied denied) {
            throw refusal(denied);
        }
        if (outcome instanceof Outcome.Completed completed) {
            return new CommandResult(completed.invocationId(), "completed", completed.payload(), null, null);
        }
        if (outcome instanceof Outcome.Accepted accepted) {
            return new CommandResult(accepted.invocationId(), "accepted", accepted.payload(), null, null);
        }
        if (outcome instanceof Outcome.Failed failed) {
            return new CommandResult(failed.invocationId(), "failed", null, failed.errorCode(), failed.message());
        }
        return new CommandResult(outcome.invocationId(), "unknown", null, null,
                "no answer before the deadline; not retried");
    }

    /**
     * The person's own sound takes the speaker at once: background sound that holds it is stopped
     * first (the device's speaker.stop), queued background sound waits behind this one.
     */
    private Outcome speakNow(ActionRequest request) {
        String ticket = "direct:" + java.util.UUID.randomUUID();
        Claim claim = floor.request(request.gadgetId(), ticket, Priority.INTERACTION, request.at());
        if (claim instanceof Claim.Preempted && registry.command(request.gadgetId(), "speaker.stop").isPresent()) {
            dispatcher.invokeAndWait(new ActionRequest(request.subject(), request.gadgetId(), "speaker.stop",
                    Map.of(), Priority.INTERACTION, clock.instant()), "direct");
        }
        Dispatcher.Dispatch dispatch = dispatcher.sendAwaited(request, "direct");
        if (!(dispatch instanceof Dispatcher.Sent sent)) {
            floor.release(request.gadgetId(), ticket);
            return ((Dispatcher.NotSent) dispatch).outcome();
        }
        floor.playing(sent.invocationId(), request.gadgetId(), ticket);
        Outcome outcome = dispatcher.await(sent);
        if (!(outcome instanceof Outcome.Accepted)) {
            floor.ended(sent.invocationId());
        }
        return outcome;
    }

    private static ApiProblem refusal(Outcome.Denied denied) {
        return switch (denied.reason()) {
            case "not_found", "unpaired" -> ApiProblem.notFound("gadget");
            case "privileged" -> new ApiProblem(HttpStatus.FORBIDDEN, "command-privileged",
                    "privileged commands are never dispatched for agents or clients");
            case "unregistered_command" -> ApiProblem.badRequest("command-unregistered",
                    "the gadget has not registered this command");
            case "mover_busy" -> ApiProblem.conflict("mover-busy", denied.detail());
            default -> new ApiProblem(HttpStatus.FORBIDDEN, "command-denied", denied.reason() + ": " + denied.detail());
        };
    }

    private GadgetListing listing(GadgetStore.Row row) {
        var registration = registry.registration(row);
        return new GadgetListing(row.id(), row.name(), row.online(), row.lastSeen(), row.pairedAt(),
                row.registeredAt(), registration.map(Registration::commands).orElse(Map.of()),
                registration.map(Registration::events).orElse(List.of()),
                registration.map(Registration::capabilities).orElse(null));
    }
}
