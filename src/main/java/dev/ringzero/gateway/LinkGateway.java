package dev.ringzero.gateway;

import dev.ringzero.gadgets.BrokerAccess;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.dispatch.AnswerLane;
import dev.ringzero.gadgets.GadgetStore;
import dev.ringzero.policy.SpeakerFloor;
import dev.ringzero.router.EventAdmission;
import dev.ringzero.router.IncomingEvent;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * Ring 0's inbound side of the link: every message a device publishes lands here, is checked
 * (size, pairing, JSON, shape) and handed to registration, presence, event admission or the
 * dispatcher. The gadget id comes from the topic, which the broker binds to the device's login;
 * an id written inside a payload is never trusted. Bad messages are refused and counted, and
 * never stop the gateway; a message the database refused (an outage) stays unacknowledged and is
 * handled again shortly ({@link #RETRY_AFTER}), off the link's thread.
 *
 * <p>Every message is acknowledged to the broker once it is handled, except an event and an
 * answer: an event is acknowledged by admission, once it is stored with its runs, and an answer by
 * the answer lane, once it is recorded (until then the broker keeps it, across a restart too).
 */
@Component
public class LinkGateway {

    /** Playback of an invocation ended (data.invocation): frees the gadget's speaker. */
    static final String SPEAKER_IDLE = "speaker_idle";
    /** Push-to-talk: the person is interacting; background sound waits. */
    static final String PTT_STARTED = "ptt_started";
    static final String PTT_ENDED = "ptt_ended";
    /** The largest {@code uptime_ms} taken as a board's clock: a century. */
    static final long MAX_UPTIME_MS = Duration.ofDays(36_525).toMillis();
    /** How long a message the database refused waits before it is handled again. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(LinkGateway.class);

    private final GadgetStore gadgets;
    private final EventAdmission admission;
    private final AnswerLane answers;
    private final LinkPublisher publisher;
    private final LinkRejections rejections;
    private final ObjectMapper json;
    private final Clock clock;
    private final Optional<DynsecBrokerAccess> dynsec;
    private final SpeakerFloor floor;
    private final java.util.concurrent.Executor workers;
    private final java.util.concurrent.Executor resultWorkers;
    private final org.springframework.scheduling.TaskScheduler scheduler;

    LinkGateway(GadgetStore gadgets, EventAdmission admission, AnswerLane answers, LinkPublisher publisher,
            LinkRejections rejections, ObjectMapper json, Clock clock, Optional<DynsecBrokerAccess> dynsec,
            SpeakerFloor floor,
            @org.springframework.beans.factory.annotation.Qualifier("linkWorkers") java.util.concurrent.Executor workers,
            @org.springframework.beans.factory.annotation.Qualifier("linkResultWorkers")
            java.util.concurrent.Executor resultWorkers, org.springframework.scheduling.TaskScheduler scheduler) {
        this.scheduler = scheduler;
        this.floor = floor;
        this.workers = workers;
        this.resultWorkers = resultWorkers;
        this.gadgets = gadgets;
        this.admission = admission;
        this.answers = answers;
        this.publisher = publisher;
        this.rejections = rejections;
        this.json = json;
        this.clock = clock;
        this.dynsec = dynsec;
    }

    /**
     * Handles one message; {@code acknowledge} tells the broker it need not deliver it again. A
     * message the database refused is handled again shortly, unacknowledged until then.
     */
    public void accept(String topic, byte[] payload, Runnable acknowledge) {
        accept(topic, payload, false, acknowledge);
    }

    /**
     * As {@link #accept(String, byte[], Runnable)}, for a message the broker may be delivering
     * again ({@code redelivered}: MQTT's DUP flag).
     */
    public void accept(String topic, byte[] payload, boolean redelivered, Runnable acknowledge) {
        boolean handedOn;
        try {
            handedOn = handle(topic, payload, redelivered, acknowledge);
        } catch (DataAccessException e) {
            // Thrown to Paho, this dropped the whole connection: the link took nothing until it had
            // connected and subscribed again, 30 s after a 5 s PostgreSQL restart (the fault suite),
            // and the events of that half minute were shed. The message stays unacknowledged here
            // instead, and is handled again on a worker, not on the link's thread.
            log.warn("a message on {} waits for the database and is handled again in {}: {}", topic, RETRY_AFTER,
                    e.toString());
            scheduler.schedule(() -> workers.execute(() -> accept(topic, payload, redelivered, acknowledge)),
                    clock.instant().plus(RETRY_AFTER));
            return;
        }
        if (!handedOn) {
            acknowledge.run();
        }
    }

    /** True if {@code acknowledge} was handed on (an event on its way to admission). */
    private boolean handle(String topic, byte[] payload, boolean redelivered, Runnable acknowledge) {
        if (DynsecBrokerAccess.RESPONSE_TOPIC.equals(topic)) {
            dynsec.ifPresent(access -> access.onResponse(payload));
            return false;
        }
        Optional<Topics.Parsed> parsed = Topics.parse(topic);
        if (parsed.isEmpty()) {
            return false;
        }
        String gadgetId = parsed.get().gadgetId();
        String suffix = parsed.get().suffix();
        if (payload.length > LinkLimits.MAX_MESSAGE_BYTES) {
            rejections.reject(gadgetId, "oversized", payload.length + " bytes on " + suffix);
            return false;
        }
        if (Topics.STATUS.equals(suffix) && payload.length == 0) {
            return false; // a cleared retained status (our own, at unpairing)
        }
        Optional<GadgetStore.Pairing> gadget = gadgets.pairing(gadgetId);
        if (gadget.isEmpty()) {
            rejections.reject(gadgetId, "unknown_gadget", "not paired; " + suffix + " ignored");
            return false;
        }
        JsonNode message;
        try {
            message = json.readTree(payload);
        } catch (IOException e) {
            rejections.reject(gadgetId, "malformed", "not JSON on " + suffix);
            return false;
        }
        if (message == null || !message.isObject()) {
            rejections.reject(gadgetId, "malformed", "not a JSON object on " + suffix);
            return false;
        }
        try {
            switch (suffix) {
                case Topics.STATUS -> presence(gadgetId, message);
                case Topics.REGISTER -> register(gadgetId, message);
                case Topics.EVENTS -> {
                    return event(gadget.get(), message, redelivered, acknowledge);
                }
                case Topics.RESULTS -> {
                    return result(gadgetId, message, acknowledge);
                }
                default -> rejections.reject(gadgetId, "unexpected_topic", suffix);
            }
        } catch (DataAccessException e) {
            throw e; // infrastructure: handled again later (see accept), never refused as invalid
        } catch (RuntimeException e) {
            rejections.reject(gadgetId, "invalid", suffix + ": " + e.getMessage());
        }
        return false;
    }

    private void presence(String gadgetId, JsonNode message) {
        if (!message.path("online").isBoolean()) {
            rejections.reject(gadgetId, "malformed", "status needs {\"online\": true|false}");
            return;
        }
        gadgets.presence(gadgetId, message.get("online").asBoolean(), clock.instant());
    }

    private void register(String gadgetId, JsonNode request) {
        ObjectNode reply = json.createObjectNode();
        reply.put("type", "res");
        reply.put("id", request.path("id").asText(""));
        Optional<RegistrationValidator.Rejection> rejection = RegistrationValidator.check(request);
        if (rejection.isPresent()) {
            reply.put("ok", false);
            reply.putObject("error").put("code", rejection.get().code()).put("message", rejection.get().message());
            rejections.reject(gadgetId, "registration_" + rejection.get().code(), rejection.get().message());
        } else {
            gadgets.register(gadgetId, request.get("params").toString(), clock.instant());
            reply.put("ok", true);
            reply.putObject("result").put("status", "registered");
        }
        publisher.publish(gadgetId, Topics.REGISTER_REPLY, reply.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * The board's clock when it sent the event, in milliseconds since it booted; null if the event
     * has none, or none that could be (not a whole number from zero to a century): it only ever
     * tells that an event is older than it looks, so an event without it is admitted all the same.
     */
    static Long uptime(JsonNode uptime) {
        if (!uptime.isIntegralNumber() || !uptime.canConvertToLong()) {
            return null;
        }
        long millis = uptime.asLong();
        return millis >= 0 && millis <= MAX_UPTIME_MS ? millis : null;
    }

    /** True if the event went to admission, which acknowledges it once it is stored. */
    private boolean event(GadgetStore.Pairing gadget, JsonNode message, boolean redelivered, Runnable acknowledge) {
        JsonNode params = message.path("params");
        // text, not coerced: an id 5 or an event true is malformed, not the event "5" or "true"; and
        // text the database takes (no NUL, at most its 64 characters), or the event would be lost with
        // an error instead of refused here. Any other name is the owner's to see in the inbox.
        if (!"link.event".equals(message.path("method").asText()) || !linkText(params.path("id"))
                || !linkText(params.path("event"))
                || (params.has("data") && !params.get("data").isObject())) {
            rejections.reject(gadget.gadgetId(), "malformed", "link.event needs params {id, event, data?}");
            return false;
        }
        String eventId = params.get("id").asText();
        String name = params.get("event").asText();
        JsonNode data = params.path("data").isObject() ? params.get("data") : json.createObjectNode();
        if (SPEAKER_IDLE.equals(name)) {
            // a link signal for ring 0's speaker floor, not an agent trigger (nor inbox noise)
            floor.ended(data.path("invocation").asText(""));
            return false;
        }
        // admitted and routed on a worker, in one transaction, and only then acknowledged: the
        // link's single thread never waits for a commit or a process start
        Long uptime = uptime(params.path("uptime_ms"));
        IncomingEvent.BoardTime sent = uptime == null ? null : new IncomingEvent.BoardTime(uptime, redelivered);
        admission.admitSoon(new IncomingEvent(gadget.gadgetId(), gadget.ownerId(), eventId, name, data, "mqtt", sent),
                acknowledge, () -> {
                    if (PTT_STARTED.equals(name)) {
                        floor.interactionStarted(gadget.gadgetId());
                    } else if (PTT_ENDED.equals(name)) {
                        floor.interactionEnded(gadget.gadgetId());
                    }
                }, workers);
        return true;
    }

    /**
     * True if {@code id} could be a link id or event name (an event's id and name, one of ring 0's
     * invocation ids): text of 1 to 64 characters, no control characters; anything else would only
     * fail where it is stored or looked up.
     */
    static boolean linkText(JsonNode id) {
        if (!id.isTextual() || id.asText().isEmpty() || id.asText().length() > 64) {
            return false;
        }
        return id.asText().chars().noneMatch(c -> c < 0x20 || c == 0x7f);
    }

    /** True if the answer went to the answer lane, which acknowledges it once it is recorded. */
    private boolean result(String gadgetId, JsonNode message, Runnable acknowledge) {
        if (!"link.result".equals(message.path("method").asText()) || !linkText(message.path("id"))) {
            rejections.reject(gadgetId, "malformed", "link.result needs {method, id, ok, payload|error}");
            return false;
        }
        // off the link's thread: settling wakes the waiting run, which may do a step of work
        resultWorkers.execute(() -> answers.onResult(gadgetId, message, acknowledge));
        return true;
    }
}
