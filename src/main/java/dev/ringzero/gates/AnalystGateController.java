package dev.ringzero.gates;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.QueryFilters;
import dev.ringzero.Refusal;
import dev.ringzero.accounts.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The analysts' read of every owner's ended gates, beside the finished runs (Cockpit's "Run history"). */
@RestController
@Tag(name = "gates", description = "the approval desk: gated actions awaiting the owner")
class AnalystGateController {

    private final GateService gates;
    private final ObjectMapper json;

    AnalystGateController(GateService gates, ObjectMapper json) {
        this.gates = gates;
        this.json = json;
    }

    record GatePage(List<GateView> gates, String next) {
    }

    /** Analysts: ended gates of every owner (Cockpit's "Run history" shows them beside the runs). */
    @GetMapping("/api/v1/analyst/gates")
    @Operation(summary = "Analysts: ended gates of every owner, newest first by filing",
            description = "Filters: agent, gadget, state (executed, failed, denied, expired, fenced; repeat or "
                    + "comma-separate), from (inclusive) and to (exclusive) ISO-8601 instants of filing; limit 1-200 "
                    + "(default 50), cursor = the previous page's next. Analysts (and the administrator) only, with "
                    + "a token or Cockpit's login. A wrong filter is 400 invalid-filter.")
    GatePage ended(Caller caller, @RequestParam(required = false) String agent,
            @RequestParam(required = false) String gadget, @RequestParam(required = false) List<String> state,
            @RequestParam(required = false) String from, @RequestParam(required = false) String to,
            @RequestParam(required = false) String limit, @RequestParam(required = false) String cursor) {
        if (!caller.readsEveryOwner()) {
            throw Refusal.forbidden("forbidden", "the gates of every owner are for analysts");
        }
        java.time.Instant since = QueryFilters.instant(from, "from");
        java.time.Instant until = QueryFilters.instant(to, "to");
        if (since != null && until != null && !since.isBefore(until)) {
            throw QueryFilters.invalid("'from' (" + since + ") must be before 'to' (" + until + ")");
        }
        int size = QueryFilters.limit(limit, 50, 200);
        QueryFilters.Keyset after = QueryFilters.keyset(cursor);
        List<Gate> found = gates.ended(QueryFilters.id(agent, "agent", 36), QueryFilters.id(gadget, "gadget", 64),
                endedStates(state), since, until, after == null ? null : after.at(), after == null ? null : after.id(),
                size + 1);
        List<GateView> page = found.stream().limit(size).map(gate -> GateView.of(gate, json)).toList();
        String next = found.size() > size
                ? new QueryFilters.Keyset(page.get(page.size() - 1).filedAt(), page.get(page.size() - 1).id()).text()
                : null;
        return new GatePage(page, next);
    }

    private static List<String> endedStates(List<String> values) {
        if (values == null) {
            return List.of();
        }
        List<String> known = java.util.Arrays.stream(GateState.values()).filter(GateState::terminal)
                .map(GateState::wire).toList();
        List<String> states = new java.util.ArrayList<>();
        for (String value : values) {
            for (String part : value.split(",", -1)) {
                String wire = part.trim().toLowerCase(Locale.ROOT);
                if (!known.contains(wire)) {
                    throw QueryFilters.invalid("unknown state '" + QueryFilters.clip(part) + "'; ended gates are "
                            + String.join(", ", known));
                }
                states.add(wire);
            }
        }
        return states;
    }

}
