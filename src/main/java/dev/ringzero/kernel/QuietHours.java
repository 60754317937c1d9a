package dev.ringzero.kernel;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Objects;

/**
 * A gadget's daily quiet window in its owner's time zone, during which background sound is held back.
 * The window is half-open, {@code [from, to)}, and crosses midnight when {@code from} is after
 * {@code to} (22:00–07:00 is quiet at 23:30 and at 06:59, not at 07:00). Local time is computed per
 * instant, so daylight-saving changes need no special case.
 */
public record QuietHours(LocalTime from, LocalTime to, ZoneId zone) {

    public QuietHours {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(zone, "zone");
        if (from.equals(to)) {
            // ambiguous: nothing quiet, or all day quiet? make the owner say which
            throw new IllegalArgumentException("quiet hours need distinct start and end, got " + from);
        }
    }

    /** Whether {@code instant} falls inside the quiet window. */
    public boolean contains(Instant instant) {
        LocalTime local = instant.atZone(zone).toLocalTime();
        boolean afterStart = !local.isBefore(from);
        boolean beforeEnd = local.isBefore(to);
        return from.isBefore(to) ? afterStart && beforeEnd : afterStart || beforeEnd;
    }
}
