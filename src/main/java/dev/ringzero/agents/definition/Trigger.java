package dev.ringzero.agents.definition;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** What starts a run of an agent. {@link #kind()} is the value of the JSON {@code kind} field. */
public sealed interface Trigger permits Trigger.GadgetEventTrigger, Trigger.ScheduleTrigger, Trigger.InvokeTrigger {

    String GADGET_EVENT = "gadget.event";
    String SCHEDULE = "schedule";
    String INVOKE = "invoke";

    /** Time zone used when a definition names none. */
    String DEFAULT_TIME_ZONE = "UTC";

    String kind();

    ObjectNode toJson();

    /** Parses one entry of {@code triggers}; the node must already have passed the schema. */
    static Trigger from(JsonNode node) {
        String kind = SpecJson.requiredText(node, "kind");
        return switch (kind) {
            case GADGET_EVENT -> new GadgetEventTrigger(
                    SpecJson.requiredText(node, "gadget"),
                    SpecJson.requiredText(node, "event"),
                    node.has("when") ? When.from(node.get("when")) : When.ANY);
            case SCHEDULE -> new ScheduleTrigger(
                    SpecJson.requiredText(node, "cron"),
                    SpecJson.optionalText(node, "timeZone", DEFAULT_TIME_ZONE));
            case INVOKE -> new InvokeTrigger();
            default -> throw new IllegalArgumentException("unknown trigger kind '" + kind + "'");
        };
    }

    /** An event a bound gadget published, optionally filtered by time and event data. */
    record GadgetEventTrigger(String gadget, String event, When when) implements Trigger {
        public GadgetEventTrigger {
            Objects.requireNonNull(gadget, "gadget");
            Objects.requireNonNull(event, "event");
            when = when == null ? When.ANY : when;
        }

        @Override
        public String kind() {
            return GADGET_EVENT;
        }

        @Override
        public ObjectNode toJson() {
            ObjectNode json = SpecJson.MAPPER.createObjectNode()
                    .put("kind", kind())
                    .put("gadget", gadget)
                    .put("event", event);
            if (!when.equals(When.ANY)) {
                json.set("when", when.toJson());
            }
            return json;
        }
    }

    /** A five-field Unix cron expression, read in {@code timeZone}. */
    record ScheduleTrigger(String cron, String timeZone) implements Trigger {
        public ScheduleTrigger {
            Objects.requireNonNull(cron, "cron");
            timeZone = timeZone == null ? DEFAULT_TIME_ZONE : timeZone;
        }

        @Override
        public String kind() {
            return SCHEDULE;
        }

        /** The zone; only call on a validated spec, an unknown zone id throws. */
        public ZoneId zone() {
            return ZoneId.of(timeZone);
        }

        @Override
        public ObjectNode toJson() {
            return SpecJson.MAPPER.createObjectNode()
                    .put("kind", kind())
                    .put("cron", cron)
                    .put("timeZone", timeZone);
        }
    }

    /** Started by hand or by another agent through the API. */
    record InvokeTrigger() implements Trigger {
        @Override
        public String kind() {
            return INVOKE;
        }

        @Override
        public ObjectNode toJson() {
            return SpecJson.MAPPER.createObjectNode().put("kind", kind());
        }
    }

    /**
     * Filters on a gadget event. Hours are a half-open window {@code [startHour, endHour)} in
     * {@code timeZone}; both null means any hour. Empty {@code days} means every day. {@code data}
     * lists event data fields that must equal the given String, Number or Boolean.
     */
    record When(Integer startHour, Integer endHour, Set<DayOfWeek> days, String timeZone, Map<String, Object> data) {

        /** No filter at all. */
        public static final When ANY = new When(null, null, Set.of(), DEFAULT_TIME_ZONE, Map.of());

        private static final String[] DAY_NAMES = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};

        public When {
            if ((startHour == null) != (endHour == null)) {
                throw new IllegalArgumentException("hours need both a start and an end");
            }
            days = days == null || days.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(days));
            timeZone = timeZone == null ? DEFAULT_TIME_ZONE : timeZone;
            data = SpecJson.freezeMap(data);
        }

        static When from(JsonNode node) {
            Integer start = null;
            Integer end = null;
            JsonNode hours = node.get("hours");
            if (hours != null && hours.isArray() && hours.size() == 2) {
                start = hours.get(0).asInt();
                end = hours.get(1).asInt();
            }
            Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
            SpecJson.textList(node, "days").forEach(day -> days.add(dayOf(day)));
            @SuppressWarnings("unchecked")
            Map<String, Object> data = node.has("data")
                    ? (Map<String, Object>) SpecJson.toPlain(node.get("data"))
                    : Map.of();
            return new When(start, end, days, SpecJson.optionalText(node, "timeZone", DEFAULT_TIME_ZONE), data);
        }

        public boolean hasHours() {
            return startHour != null;
        }

        /** The zone; only call on a validated spec, an unknown zone id throws. */
        public ZoneId zone() {
            return ZoneId.of(timeZone);
        }

        /** True if {@code at}, seen in this filter's zone, falls on an allowed day and hour. */
        public boolean admitsTime(Instant at) {
            ZonedDateTime local = at.atZone(zone());
            if (!days.isEmpty() && !days.contains(local.getDayOfWeek())) {
                return false;
            }
            return !hasHours() || (local.getHour() >= startHour && local.getHour() < endHour);
        }

        ObjectNode toJson() {
            ObjectNode json = SpecJson.MAPPER.createObjectNode();
            if (hasHours()) {
                json.putArray("hours").add(startHour).add(endHour);
            }
            if (!days.isEmpty()) {
                ArrayNode array = json.putArray("days");
                days.stream().sorted().forEach(day -> array.add(DAY_NAMES[day.ordinal()]));
            }
            json.put("timeZone", timeZone);
            if (!data.isEmpty()) {
                json.set("data", SpecJson.MAPPER.valueToTree(data));
            }
            return json;
        }

        private static DayOfWeek dayOf(String name) {
            int index = Arrays.asList(DAY_NAMES).indexOf(name.toLowerCase(Locale.ROOT));
            if (index < 0) {
                throw new IllegalArgumentException("unknown day '" + name + "'");
            }
            return DayOfWeek.of(index + 1);
        }
    }
}
