package dev.ringzero.agents.runs;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.ringzero.QueryFilters;
import dev.ringzero.Refusal;

/** The analysts' run-history filters that are about runs: statuses and the page cursor. */
final class HistoryFilters {

    private HistoryFilters() {
    }

    /** Where the previous page ended: its last run's creation and id. */
    record Cursor(Instant createdAt, String id) {
    }

    static String cursorOf(Instant createdAt, String id) {
        return createdAt + "_" + id;
    }

    static Cursor cursor(String text) {
        if (text == null) {
            return null;
        }
        int split = text.lastIndexOf('_');
        if (split > 0) {
            try {
                return new Cursor(Instant.parse(text.substring(0, split)),
                        QueryFilters.id(text.substring(split + 1), "cursor", 36));
            } catch (java.time.format.DateTimeParseException | Refusal e) {
                // said below
            }
        }
        throw QueryFilters.invalid("'cursor' must be the 'next' of a previous page, not '" + QueryFilters.clip(text)
                + "'");
    }

    /** Finished statuses only: an active run is not in the history yet. */
    static List<String> statuses(List<String> values) {
        if (values == null) {
            return List.of();
        }
        List<String> known = Arrays.stream(RunStatus.values()).map(RunStatus::wire)
                .filter(wire -> !RunStatus.ACTIVE.contains(wire)).toList();
        List<String> statuses = new ArrayList<>();
        for (String value : values) {
            for (String status : value.split(",", -1)) {
                String wire = status.trim().toLowerCase(Locale.ROOT);
                if (!known.contains(wire)) {
                    throw QueryFilters.invalid("unknown status '" + QueryFilters.clip(status) + "'; finished runs are "
                            + String.join(", ", known));
                }
                statuses.add(wire);
            }
        }
        return statuses;
    }
}
