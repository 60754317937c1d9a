package dev.ringzero.dispatch;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.Refusal;
import dev.ringzero.gadgets.GadgetRegistry;
import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.Claim;
import dev.ringzero.kernel.CommandKind;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.Subject;
import dev.ringzero.policy.SpeakerFloor;
import org.springframework.stereotype.Service;

/**
 * The owner's direct command path, one place for every door (REST, MCP): the person commands
 * their own gadget, through the same kernel checks as every agent, with the priority of an
 * interaction. A refusal (not found, privileged, unregistered, mover busy, invalid params,
 * offline) is thrown as a {@link Refusal} and nothing is sent.
 */
@Service
public class DirectCommands {

    private final Dispatcher dispatcher;
    private final GadgetRegistry registry;
    private final SpeakerFloor floor;
    private final Clock clock;

    DirectCommands(Dispatcher dispatcher, GadgetRegistry registry, SpeakerFloor floor, Clock clock) {
        this.dispatcher = dispatcher;
        this.registry = registry;
        this.floor = floor;
        this.clock = clock;
    }

    public record CommandResult(String invocationId, String outcome, JsonNode payload, String errorCode,
            String message) {
    }

    /** Sends {@code command} to the owner's gadget {@code gadgetId} and waits for its answer (or the deadline). */
    public CommandResult send(String ownerId, String gadgetId, String command, Map<String, Object> params) {
        ActionRequest request = new ActionRequest(new Subject.Owner(ownerId), gadgetId, command,
                params, Priority.INTERACTION, clock.instant());
        Outcome outcome = CommandKind.of(command) == CommandKind.SOUND ? speakNow(request)
                : dispatcher.invokeAndWait(request, "direct");
        if (outcome instanceof Outcome.Offline) {
            throw Refusal.conflict("gadget-offline", "gadget '" + gadgetId + "' is offline; nothing was sent");
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
        Optional<Outcome> misfit = dispatcher.misfit(request);
        if (misfit.isPresent()) {
            return misfit.get(); // refused before the speaker is taken: nothing at all is sent
        }
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

    private static Refusal refusal(Outcome.Denied denied) {
        return switch (denied.reason()) {
            case "not_found", "unpaired" -> Refusal.notFound("gadget");
            case "privileged" -> Refusal.forbidden("command-privileged",
                    "privileged commands are never dispatched for agents or clients");
            case "unregistered_command" -> Refusal.invalid("command-unregistered",
                    "the gadget has not registered this command");
            case "mover_busy" -> Refusal.conflict("mover-busy", denied.detail());
            case "invalid_params" -> Refusal.invalid("invalid-params", denied.detail());
            default -> Refusal.forbidden("command-denied", denied.reason() + ": " + denied.detail());
        };
    }

}
