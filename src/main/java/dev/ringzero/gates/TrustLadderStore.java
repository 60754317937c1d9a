package dev.ringzero.gates;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.kernel.TrustHistory;
import dev.ringzero.kernel.TrustLevel;
import dev.ringzero.kernel.TrustRule;
import dev.ringzero.kernel.TrustRules;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * The kernel's two trust ports, backed by this package's tables: the owner's rules in the owner's
 * order ({@code rz_trust_rule}), and the human dispositions an earned rule learns from — read from
 * the authoritative gate table, never from the journal.
 */
@Configuration
class TrustLadderStore {

    @Bean
    @Primary
    TrustRules storedTrustRules(TrustRuleStore rules, ObjectMapper json) {
        return ownerId -> rules.of(ownerId).stream().map(row -> toRule(row, json)).toList();
    }

    @Bean
    @Primary
    TrustHistory gateTrustHistory(GateStore gates) {
        return (ownerId, agentId, intent, ruleId, since) -> agentId == null ? List.of()
                : gates.dispositions(ownerId, agentId, intent, ruleId, since);
    }

    /** A stored row as the kernel's rule; a row that does not parse fails the decision (closed). */
    static TrustRule toRule(TrustRuleStore.Row row, ObjectMapper json) {
        Map<String, String> predicate;
        try {
            predicate = json.readValue(row.predicate(), new TypeReference<LinkedHashMap<String, String>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("trust rule " + row.id() + " has an unreadable predicate", e);
        }
        return new TrustRule(row.id(), row.ownerId(), Optional.ofNullable(row.agentId()), row.intent(), predicate,
                TrustLevel.fromWire(row.level()), row.earnAfter(),
                row.earnWindow() == null ? Duration.ZERO : Duration.parse(row.earnWindow()));
    }
}
