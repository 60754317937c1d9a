package dev.ringzero.gates;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.ringzero.QueryFilters;
import dev.ringzero.Refusal;
import dev.ringzero.accounts.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The audit trail read back: an owner reads their own entries, an analyst everyone's. Newest
 * first, a page at a time ({@code cursor} = the previous page's {@code next}). Every filter is
 * checked before anything is read; a wrong one is a 400 that names it, never an empty page.
 */
@RestController
@Tag(name = "audit", description = "the append-only audit trail of every action's disposition")
class AuditController {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;
    private static final Set<String> FILTERS = Set.of("limit", "cursor", "from", "to", "agent", "gadget", "kind",
            "owner");

    private final Audit audit;

    AuditController(Audit audit) {
        this.audit = audit;
    }

    record EntryView(long id, Instant at, String ownerId, String agentId, String runId, String gateId,
            String gadgetId, String intent, String kind, String actor, String ruleId, String detail) {

        static EntryView of(Audit.Listed listed) {
            Audit.Entry entry = listed.entry();
            return new EntryView(entry.id(), entry.at(), entry.ownerId(), entry.agentId(), entry.runId(),
                    entry.gateId(), listed.gadgetId(), entry.intent(), entry.disposition(), entry.actor(),
                    entry.ruleId(), entry.detail());
        }
    }

    /** One page; {@code next} is absent on the last one. */
    record Page(List<EntryView> entries, String next) {
    }

    @GetMapping("/api/v1/audit")
    @Operation(summary = "The audit trail, newest first: an owner's own entries, or (analysts) everyone's",
            description = "Filters: from (inclusive) and to (exclusive) as ISO-8601 instants, agent, gadget, "
                    + "kind (a disposition: refused, auto-executed, gated, approved, denied, executed, failed, "
                    + "expired, fenced; repeat it or separate with commas for several), owner (analysts only). "
                    + "Paging: limit (1-500, default 50) and cursor (the previous page's next). "
                    + "A wrong or unknown filter is 400 invalid-filter.")
    Page list(Caller caller,
            @Parameter(description = "entries at or after this instant (ISO-8601)") @RequestParam(required = false) String from,
            @Parameter(description = "entries before this instant (ISO-8601)") @RequestParam(required = false) String to,
            @Parameter(description = "one agent's entries") @RequestParam(required = false) String agent,
            @Parameter(description = "entries about one gadget") @RequestParam(required = false) String gadget,
            @Parameter(description = "dispositions, repeated or comma-separated") @RequestParam(required = false)
            List<String> kind,
            @Parameter(description = "one owner's entries (analysts only)") @RequestParam(required = false) String owner,
            @Parameter(description = "1-500, default 50") @RequestParam(required = false) String limit,
            @Parameter(description = "the previous page's next") @RequestParam(required = false) String cursor,
            @Parameter(hidden = true) @RequestParam MultiValueMap<String, String> params) {
        for (String name : params.keySet()) {
            if (!FILTERS.contains(name)) {
                throw invalid("unknown filter '" + clip(name) + "'; known: agent, cursor, from, gadget, kind, limit, "
                        + "owner, to");
            }
            if (!name.equals("kind") && params.get(name).size() > 1) {
                throw invalid("filter '" + name + "' is given more than once");
            }
        }
        boolean analyst = caller.role() == Caller.Role.ANALYST;
        String ownerFilter = QueryFilters.id(owner, "owner", 64);
        if (ownerFilter != null && !analyst && !ownerFilter.equals(caller.accountId())) {
            throw Refusal.forbidden("forbidden", "only an analyst reads another owner's audit entries");
        }
        String ownerId = analyst ? ownerFilter : caller.accountId();
        Instant since = QueryFilters.instant(from, "from");
        Instant until = QueryFilters.instant(to, "to");
        if (since != null && until != null && !since.isBefore(until)) {
            throw invalid("'from' (" + since + ") must be before 'to' (" + until + ")");
        }
        int size = QueryFilters.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        Long before = cursor(cursor);
        var query = new Audit.Query(ownerId, since, until, QueryFilters.id(agent, "agent", 36),
                QueryFilters.id(gadget, "gadget", 64),
                kinds(kind), before, size + 1);
        List<Audit.Listed> found = audit.query(query);
        List<EntryView> page = found.stream().limit(size).map(EntryView::of).toList();
        String next = found.size() > size ? String.valueOf(page.get(page.size() - 1).id()) : null;
        return new Page(page, next);
    }

    private static Long cursor(String text) {
        if (text == null) {
            return null;
        }
        try {
            long id = Long.parseLong(text.trim());
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw invalid("'cursor' must be the 'next' of a previous page, not '" + clip(text) + "'");
    }

    private static List<String> kinds(List<String> values) {
        if (values == null) {
            return List.of();
        }
        List<String> kinds = new ArrayList<>();
        for (String value : values) {
            for (String kind : value.split(",", -1)) {
                String wire = kind.trim().toLowerCase(Locale.ROOT);
                if (Arrays.stream(Audit.Disposition.values()).noneMatch(d -> d.wire().equals(wire))) {
                    throw invalid("unknown kind '" + clip(kind) + "'; known: " + String.join(", ",
                            Arrays.stream(Audit.Disposition.values()).map(Audit.Disposition::wire).toList()));
                }
                kinds.add(wire);
            }
        }
        return kinds;
    }

    private static String clip(String text) {
        return QueryFilters.clip(text);
    }

    private static Refusal invalid(String message) {
        return QueryFilters.invalid(message);
    }
}
