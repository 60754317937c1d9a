package dev.ringzero.agents;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.agents.definition.Trigger;

/**
 * Does an event start this agent? Checks each {@code gadget.event} trigger of the spec for the
 * gadget and event, then its filters: days and hours in the trigger's time zone, then data
 * field equality. Plain and allocation-light: it runs for every candidate of every event.
 */
public final class TriggerMatcher {

    /** The answer: matched (which trigger), filtered out (the first filter that failed), or no trigger. */
    public sealed interface Match permits Matched, FilteredOut, NoTrigger {
    }

    public record Matched(int triggerIndex) implements Match {
    }

    public record FilteredOut(String filter, String detail) implements Match {
    }

    public record NoTrigger() implements Match {
    }

    private TriggerMatcher() {
    }

    public static Match evaluate(AgentSpec spec, String gadgetId, String event, Map<String, Object> data, Instant at) {
        FilteredOut firstFailure = null;
        List<Trigger> triggers = spec.triggers();
        for (int i = 0; i < triggers.size(); i++) {
            if (!(triggers.get(i) instanceof Trigger.GadgetEventTrigger trigger)
                    || !trigger.gadget().equals(gadgetId) || !trigger.event().equals(event)) {
                continue;
            }
            FilteredOut failure = filters(trigger.when(), data, at);
            if (failure == null) {
                return new Matched(i);
            }
            if (firstFailure == null) {
                firstFailure = failure;
            }
        }
        return firstFailure != null ? firstFailure : new NoTrigger();
    }

    private static FilteredOut filters(Trigger.When when, Map<String, Object> data, Instant at) {
        ZonedDateTime local = at.atZone(when.zone());
        if (!when.days().isEmpty() && !when.days().contains(local.getDayOfWeek())) {
            return new FilteredOut("days", local.getDayOfWeek() + " in " + when.timeZone());
        }
        if (when.hasHours() && (local.getHour() < when.startHour() || local.getHour() >= when.endHour())) {
            return new FilteredOut("hours", local.toLocalTime().withNano(0) + " in " + when.timeZone()
                    + " is outside " + when.startHour() + "-" + when.endHour());
        }
        for (Map.Entry<String, Object> expected : when.data().entrySet()) {
            Object actual = data == null ? null : data.get(expected.getKey());
            if (!same(expected.getValue(), actual)) {
                return new FilteredOut("data." + expected.getKey(), "expected " + expected.getValue() + ", got " + actual);
            }
        }
        return null;
    }

    /** JSON equality where 2 and 2.0 are the same number. */
    private static boolean same(Object expected, Object actual) {
        if (expected instanceof Number a && actual instanceof Number b) {
            return Double.compare(a.doubleValue(), b.doubleValue()) == 0;
        }
        return Objects.equals(expected, actual);
    }
}
