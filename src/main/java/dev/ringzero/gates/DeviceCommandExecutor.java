package dev.ringzero.gates;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.StoredJson;
import dev.ringzero.gadgets.GadgetRegistry;
import dev.ringzero.dispatch.Dispatcher;
import dev.ringzero.dispatch.Invocation;
import dev.ringzero.dispatch.Outcome;
import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.CommandKind;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.Subject;
import dev.ringzero.Refusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Device commands ({@code chassis.drive}, {@code speaker.play_url}, …) approved at the desk. The
 * frozen payload is {@code {gadget, command, params}}; it is sent through the {@link Dispatcher}
 * as {@link Subject.ApprovedGate} at {@link Priority#APPROVED_GATE}, with the gate id as the
 * {@code link.invoke} id — the idempotency key the firmware executes at most once.
 *
 * <p>The {@code rz_invocation} row for the gate id is the trace: none means nothing was ever
 * published; {@code sent} means it may have reached the device, so reconciliation re-publishes the
 * <em>same</em> id with its original deadline — a device that ran it answers from its stored
 * result, one that never got it refuses it as expired — and then gives up as {@code unknown}
 * rather than ever acting late or twice.
 */
@Component
class DeviceCommandExecutor implements IntentExecutor {

    private static final Logger log = LoggerFactory.getLogger(DeviceCommandExecutor.class);
    private static final Pattern COMMAND = Pattern.compile("^[a-z][a-z0-9_]*+(?:\\.[a-z0-9_]++)++$");
    /** A margin past the device's deadline, so an answer sent at the last moment still counts. */
    static final Duration ANSWER_GRACE = Duration.ofSeconds(1);

    private final Dispatcher dispatcher;
    private final GadgetRegistry gadgets;
    private final ObjectMapper json;
    private final Clock clock;
    private final Duration replayWait;

    DeviceCommandExecutor(Dispatcher dispatcher, GadgetRegistry gadgets, ObjectMapper json, Clock clock,
            @Value("${ringzero.gates.replay-wait:PT5S}") Duration replayWait) {
        this.dispatcher = dispatcher;
        this.gadgets = gadgets;
        this.json = json;
        this.clock = clock;
        this.replayWait = replayWait;
    }

    @Override
    public boolean handles(String intent) {
        if (intent == null || InboxPostExecutor.INTENT.equals(intent) || !COMMAND.matcher(intent).matches()) {
            return false;
        }
        CommandKind kind = CommandKind.of(intent);
        return kind != CommandKind.RING3 && kind != CommandKind.PRIVILEGED;
    }

    @Override
    public void validate(String ownerId, String intent, JsonNode payload) {
        String gadget = payload.path("gadget").asText("");
        boolean offered = !gadget.isEmpty() && gadgets.find(ownerId, gadget).isPresent()
                && gadgets.command(gadget, intent).isPresent();
        if (!offered) {
            // the same answer for "no such gadget", "another owner's" and "does not offer it"
            throw Refusal.invalid("unknown-intent", "no gadget of yours offers '" + intent + "'");
        }
        if (payload.has("command") && !intent.equals(payload.path("command").asText())) {
            throw Refusal.invalid("invalid-payload", "payload.command must be the intent '" + intent + "'");
        }
        if (payload.has("params") && !payload.get("params").isObject()) {
            throw Refusal.invalid("invalid-payload", "payload.params must be an object");
        }
    }

    @Override
    public Execution execute(Gate gate) {
        if (invocation(gate.id()).isPresent()) {
            return reconcile(gate); // a retry: the invocation id is taken, never send it as new
        }
        JsonNode payload = StoredJson.tree(json, gate.payload());
        ActionRequest request = new ActionRequest(new Subject.ApprovedGate(gate.ownerId(), gate.id()),
                payload.path("gadget").asText(), gate.intent(), params(payload.path("params")), Priority.APPROVED_GATE,
                clock.instant());
        Dispatcher.Dispatch dispatch = dispatcher.send(request, "gate", null, gate.id());
        if (dispatch instanceof Dispatcher.Sent sent) {
            return new Execution.InFlight(Duration.between(clock.instant(), sent.deadline()).plus(ANSWER_GRACE));
        }
        Dispatcher.NotSent notSent = (Dispatcher.NotSent) dispatch;
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("outcome", "not_sent");
        result.put("reason", notSent.outcome() instanceof Outcome.Denied denied ? denied.reason()
                : notSent.outcome().status());
        if (notSent.outcome() instanceof Outcome.Denied denied) {
            result.put("detail", denied.detail());
        }
        return new Execution.Failed(StoredJson.write(json, result));
    }

    @Override
    public Execution reconcile(Gate gate) {
        Optional<Invocation> recorded = invocation(gate.id());
        if (recorded.isEmpty()) {
            return new Execution.NotStarted();
        }
        Invocation invocation = recorded.get();
        if (invocation.unanswered()) {
            replay(gate, invocation);
        }
        Optional<Outcome> unknown = dispatcher.expire(gate.id());
        return from(unknown.orElseGet(() -> dispatcher.stored(gate.id())));
    }

    @Override
    public void awaitOutcome(Gate gate, Duration within) {
        poll(gate.id(), within);
    }

    /** Publishes the same invocation again (the dispatcher asks the kernel first), then waits a little. */
    private void replay(Gate gate, Invocation invocation) {
        if (dispatcher.replay(invocation.id(), new Subject.ApprovedGate(gate.ownerId(), gate.id()),
                Priority.APPROVED_GATE)) {
            poll(invocation.id(), replayWait);
        }
    }

    private void poll(String invocationId, Duration within) {
        Instant until = clock.instant().plus(within);
        while (clock.instant().isBefore(until)) {
            if (invocation(invocationId).map(found -> !found.unanswered()).orElse(true)) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private Execution from(Outcome outcome) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("outcome", outcome.status());
        if (outcome instanceof Outcome.Completed completed) {
            result.put("payload", completed.payload());
        } else if (outcome instanceof Outcome.Accepted accepted) {
            result.put("payload", accepted.payload());
        } else if (outcome instanceof Outcome.Failed failed) {
            result.put("error", failed.errorCode());
            result.put("message", failed.message());
        } else if (outcome instanceof Outcome.Unknown) {
            result.put("needsHuman", true);
            result.put("detail", "the device did not answer; it may or may not have acted, so the command is "
                    + "not sent again — check the gadget before proposing it anew");
        }
        return outcome instanceof Outcome.Completed || outcome instanceof Outcome.Accepted
                ? new Execution.Done(StoredJson.write(json, result))
                : new Execution.Failed(StoredJson.write(json, result));
    }

    Optional<Invocation> invocation(String id) {
        return dispatcher.invocation(id);
    }

    private Map<String, Object> params(JsonNode node) {
        if (node == null || !node.isObject()) {
            return Map.of();
        }
        return json.convertValue(node, new TypeReference<LinkedHashMap<String, Object>>() { });
    }

}
