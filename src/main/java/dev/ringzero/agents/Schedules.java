package dev.ringzero.agents;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.agents.definition.Trigger;

/**
 * When a schedule trigger fires next. Cron is read on the wall clock of the trigger's time zone,
 * and daylight saving time is resolved deliberately so that every scheduled wall-clock time runs
 * exactly once:
 * <ul>
 *   <li>spring forward — a time inside the gap (02:30 when clocks jump 02:00 → 03:00) runs once,
 *       shifted forward by the gap (03:30 new time), never zero times;</li>
 *   <li>fall back — a time that occurs twice (01:30) runs once, at its first occurrence.</li>
 * </ul>
 */
public final class Schedules {

    private static final CronParser PARSER =
            new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

    private Schedules() {
    }

    /** The first fire strictly after {@code after}. */
    public static Instant nextFire(String cron, ZoneId zone, Instant after) {
        ExecutionTime execution = ExecutionTime.forCron(PARSER.parse(cron));
        // work on wall-clock time (as if the zone had no transitions), then resolve in the zone
        LocalDateTime wall = LocalDateTime.ofInstant(after, zone);
        while (true) {
            LocalDateTime next = execution.nextExecution(wall.atZone(ZoneOffset.UTC))
                    .orElseThrow(() -> new IllegalArgumentException("cron never fires: " + cron))
                    .toLocalDateTime();
            Instant resolved = ZonedDateTime.ofLocal(next, zone, null).toInstant();
            if (resolved.isAfter(after)) {
                return resolved;
            }
            wall = next;
        }
    }

    /** The earliest next fire over all schedule triggers of a spec, if it has any. */
    public static Optional<Instant> nextFire(AgentSpec spec, Instant after) {
        return spec.triggers().stream()
                .filter(Trigger.ScheduleTrigger.class::isInstance)
                .map(Trigger.ScheduleTrigger.class::cast)
                .map(trigger -> nextFire(trigger.cron(), trigger.zone(), after))
                .min(Instant::compareTo);
    }

    public static boolean hasSchedule(AgentSpec spec) {
        return spec.triggers().stream().anyMatch(Trigger.ScheduleTrigger.class::isInstance);
    }
}
