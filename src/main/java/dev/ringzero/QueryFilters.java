package dev.ringzero;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * Query-string filters of the read routes (the audit trail, the analysts' run history), checked
 * before anything is read: a wrong one is a {@link Refusal} {@code invalid-filter} that names it and
 * echoes a short, printable part of what came.
 */
public final class QueryFilters {

    /** Ids as the platform makes them: no spaces, no control characters. */
    private static final Pattern ID = Pattern.compile("^[A-Za-z0-9._:-]+$");

    private QueryFilters() {
    }

    public static Refusal invalid(String message) {
        return Refusal.invalid("invalid-filter", message);
    }

    /** An ISO-8601 instant with an offset, or null when absent. */
    public static Instant instant(String text, String name) {
        if (text == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text.trim()).toInstant();
        } catch (DateTimeParseException e) {
            throw invalid("'" + name + "' must be an ISO-8601 instant such as 2026-12-03T09:00:00Z, not '"
                    + clip(text) + "'");
        }
    }

    /** A page size from 1 to {@code max}; {@code fallback} when absent. */
    public static int limit(String text, int fallback, int max) {
        if (text == null) {
            return fallback;
        }
        try {
            int limit = Integer.parseInt(text.trim());
            if (limit >= 1 && limit <= max) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw invalid("'limit' must be a whole number from 1 to " + max + ", not '" + clip(text) + "'");
    }

    /** An id of at most {@code maxLength} characters, or null when absent. */
    public static String id(String text, String name, int maxLength) {
        if (text == null) {
            return null;
        }
        if (text.isEmpty() || text.length() > maxLength || !ID.matcher(text).matches()) {
            throw invalid("'" + name + "' must be an id of 1-" + maxLength + " letters, digits, '.', '_', ':' or '-'");
        }
        return text;
    }

    /** Where a page newest first by time ended: its last item's time and id (ids break ties). */
    public record Keyset(Instant at, String id) {

        /** The cursor a page hands out as its {@code next}. */
        public String text() {
            return at + "_" + id;
        }
    }

    /** A {@link Keyset} cursor as a previous page handed it out, or null when absent. */
    public static Keyset keyset(String text) {
        if (text == null) {
            return null;
        }
        int split = text.lastIndexOf('_');
        if (split > 0) {
            try {
                return new Keyset(Instant.parse(text.substring(0, split)), id(text.substring(split + 1), "cursor", 36));
            } catch (DateTimeParseException | Refusal e) {
                // said below
            }
        }
        throw invalid("'cursor' must be the 'next' of a previous page, not '" + clip(text) + "'");
    }

    /** What is echoed of a bad value: short, and without control characters. */
    public static String clip(String text) {
        String printable = text.codePoints().filter(c -> !Character.isISOControl(c))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return printable.length() > 40 ? printable.substring(0, 40) + "…" : printable;
    }
}
