package dev.ringzero.gates;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.StoredJson;
import dev.ringzero.accounts.Caller;
import dev.ringzero.agents.AgentStore;
import dev.ringzero.kernel.TrustLevel;
import dev.ringzero.Refusal;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * The owner's trust ladder over REST. Rules apply in list order and the first that matches wins;
 * with none, an intent takes its default (gate for moving commands and ring-3 integrations).
 */
@RestController
@RequestMapping("/api/v1/trust-rules")
@Tag(name = "trust-rules", description = "the owner's trust ladder: auto, gate, earned or deny per agent, intent and payload")
class TrustRuleController {

    /** Intent globs: command-name characters plus {@code *} and {@code ?}. */
    private static final Pattern INTENT_GLOB = Pattern.compile("^[A-Za-z0-9_.*?-]{1,120}$");
    private static final Pattern FIELD = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]{0,63}$");
    private static final Duration MAX_WINDOW = Duration.ofDays(366);

    private final TrustRuleStore rules;
    private final AgentStore agents;
    private final ObjectMapper json;
    private final Clock clock;

    TrustRuleController(TrustRuleStore rules, AgentStore agents, ObjectMapper json, Clock clock) {
        this.rules = rules;
        this.agents = agents;
        this.json = json;
        this.clock = clock;
    }

    /**
     * A new rule. {@code agentId} null = every agent; {@code predicate} field → glob ({@code *} any run,
     * {@code ?} one character; for a list field every element must match); {@code earnAfter} and
     * {@code earnWindow} (ISO-8601, e.g. P30D) only for level {@code earned}; {@code position} 0 = first,
     * absent = last.
     */
    record NewRule(String agentId, String intent, JsonNode predicate, String level, Integer earnAfter,
            String earnWindow, Integer position) {
    }

    record RuleView(String id, String agentId, String intent, Map<String, String> predicate, String level,
            Integer earnAfter, String earnWindow, int position, Instant createdAt) {
    }

    @GetMapping
    @Operation(summary = "The owner's trust rules in the order they apply")
    List<RuleView> list(Caller caller) {
        List<TrustRuleStore.Row> rows = rules.of(caller.accountId());
        return java.util.stream.IntStream.range(0, rows.size()).mapToObj(i -> view(rows.get(i), i)).toList();
    }

    @GetMapping("/{id}")
    RuleView get(Caller caller, @PathVariable String id) {
        TrustRuleStore.Row row = rules.findOwned(caller.accountId(), id)
                .orElseThrow(() -> Refusal.notFound("trust rule"));
        return view(row, rules.of(caller.accountId()).indexOf(row));
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    @Transactional
    @Operation(summary = "Add a trust rule; 400 for an unknown level, a bad glob or an agent that is not yours")
    public RuleView create(Caller caller, @RequestBody NewRule body) {
        String owner = caller.accountId();
        TrustLevel level = level(body.level());
        String intent = body.intent();
        if (intent == null || !INTENT_GLOB.matcher(intent).matches()) {
            throw Refusal.invalid("invalid-glob", "intent must be a glob of letters, digits, '.', '_', '-', "
                    + "'*' and '?' (1-120 characters), e.g. email.send or chassis.*");
        }
        if (body.agentId() != null && agents.findOwned(owner, body.agentId()).isEmpty()) {
            throw Refusal.invalid("unknown-agent", "no agent '" + body.agentId() + "' of yours");
        }
        Map<String, String> predicate = predicate(body.predicate());
        int earnAfter = 0;
        String window = null;
        if (level == TrustLevel.EARNED) {
            if (body.earnAfter() == null || body.earnAfter() < 1 || body.earnAfter() > 1000) {
                throw Refusal.invalid("invalid-trust-rule", "an earned rule needs earnAfter between 1 and 1000");
            }
            earnAfter = body.earnAfter();
            window = window(body.earnWindow());
        } else if (body.earnAfter() != null || body.earnWindow() != null) {
            throw Refusal.invalid("invalid-trust-rule", "earnAfter and earnWindow belong to earned rules only");
        }
        if (body.position() != null && body.position() < 0) {
            throw Refusal.invalid("invalid-trust-rule", "position must be 0 or more");
        }
        TrustRuleStore.Row row = new TrustRuleStore.Row(UUID.randomUUID().toString(), owner, body.agentId(), intent,
                StoredJson.write(json, predicate), level.wire(), earnAfter, window, 0, clock.instant());
        rules.insert(row, body.position());
        return get(caller, row.id());
    }

    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void delete(Caller caller, @PathVariable String id) {
        if (!rules.delete(caller.accountId(), id)) {
            throw Refusal.notFound("trust rule");
        }
    }

    private static TrustLevel level(String level) {
        try {
            return TrustLevel.fromWire(level == null ? "" : level);
        } catch (IllegalArgumentException e) {
            throw Refusal.invalid("unknown-level", "level must be auto, gate, earned or deny (got '" + level
                    + "')");
        }
    }

    /**
     * Field → glob, all strings. A glob is bad when it is empty, longer than 254 characters, holds a
     * control character, or names more than one address (two '@': it could never match one address).
     */
    private static Map<String, String> predicate(JsonNode node) {
        Map<String, String> predicate = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return predicate;
        }
        if (!node.isObject() || node.size() > 16) {
            throw Refusal.invalid("invalid-glob", "predicate must be an object of at most 16 field → glob pairs");
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!FIELD.matcher(field.getKey()).matches()) {
                throw Refusal.invalid("invalid-glob", "predicate field '" + field.getKey()
                        + "' must be a top-level payload field name");
            }
            String glob = field.getValue().isTextual() ? field.getValue().asText() : null;
            if (glob == null || glob.isEmpty() || glob.length() > 254 || glob.chars().anyMatch(Character::isISOControl)
                    || glob.indexOf('@') != glob.lastIndexOf('@')) {
                throw Refusal.invalid("invalid-glob", "predicate." + field.getKey() + " must be a glob of "
                        + "1-254 characters without control characters and with at most one '@'");
            }
            predicate.put(field.getKey(), glob);
        }
        return predicate;
    }

    private static String window(String text) {
        try {
            Duration window = Duration.parse(text == null ? "" : text);
            if (window.isNegative() || window.isZero() || window.compareTo(MAX_WINDOW) > 0) {
                throw new DateTimeParseException("out of range", text, 0);
            }
            return text; // as the owner wrote it; Duration.parse reads it back
        } catch (DateTimeParseException e) {
            throw Refusal.invalid("invalid-trust-rule", "an earned rule needs earnWindow, an ISO-8601 duration "
                    + "up to 366 days such as P30D");
        }
    }

    private RuleView view(TrustRuleStore.Row row, int index) {
        try {
            Map<String, String> predicate = json.readValue(row.predicate(),
                    new TypeReference<LinkedHashMap<String, String>>() { });
            boolean earned = TrustLevel.EARNED.wire().equals(row.level());
            return new RuleView(row.id(), row.agentId(), row.intent(), predicate, row.level(),
                    earned ? row.earnAfter() : null, earned ? row.earnWindow() : null, index, row.createdAt());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

}
