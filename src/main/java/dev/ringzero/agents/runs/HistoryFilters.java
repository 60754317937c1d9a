package dev.ringzero.agents.runs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.ringzero.QueryFilters;

/** The analysts' run-history filter that is about runs: their finished statuses. */
final class HistoryFilters {

    private HistoryFilters() {
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
