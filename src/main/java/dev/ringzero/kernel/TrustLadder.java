package dev.ringzero.kernel;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Resolves how much an agent is trusted with one intent and payload. The owner's rules are read in the
 * owner's order and the first that applies wins, so a narrow rule placed first overrides a broad one
 * after it. With no applicable rule, the intent's default applies ({@link CommandKind#defaultTrust()}):
 * gate for moving commands and ring-3 integrations, auto for other device commands.
 *
 * <p>An {@link TrustLevel#EARNED} rule is auto once the history shows at least {@code earnAfter} executed
 * approvals within its window after the most recent denial; a denial therefore demotes it back to gate
 * and earning starts over. A denial and an approval at the same instant count as the denial coming last.
 */
public final class TrustLadder {

    private TrustLadder() {
    }

    /** The effective level and deciding rule for this agent's intent at {@code now}. */
    public static TrustDecision evaluate(List<TrustRule> ownerRules, String agentId, String intent,
            Map<String, Object> payload, TrustHistory history, Instant now) {
        for (TrustRule rule : ownerRules) {
            if (rule.appliesTo(agentId, intent, payload)) {
                TrustLevel level = rule.level() == TrustLevel.EARNED
                        ? earned(rule, agentId, intent, history, now)
                        : rule.level();
                return new TrustDecision(level, Optional.of(rule.id()));
            }
        }
        return new TrustDecision(CommandKind.of(intent).defaultTrust(), Optional.empty());
    }

    private static TrustLevel earned(TrustRule rule, String agentId, String intent, TrustHistory history,
            Instant now) {
        Instant since = now.minus(rule.earnWindow());
        List<TrustHistory.Disposition> window = history.recent(rule.ownerId(), agentId, intent, rule.id(), since)
                .stream()
                .filter(d -> !d.at().isBefore(since) && !d.at().isAfter(now))
                .toList();
        Instant lastDenial = window.stream().filter(d -> !d.approved()).map(TrustHistory.Disposition::at)
                .max(Instant::compareTo).orElse(Instant.MIN);
        long earnedApprovals = window.stream()
                .filter(d -> d.approved() && d.executed() && d.at().isAfter(lastDenial))
                .count();
        return earnedApprovals >= rule.earnAfter() ? TrustLevel.AUTO : TrustLevel.GATE;
    }
}
