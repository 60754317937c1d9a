package dev.ringzero.kernel;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One owner-written entry of the trust ladder: for one agent (or all of them, when {@code agentId} is
 * empty) and an intent (a glob such as {@code email.send} or {@code chassis.*}, compared without regard to
 * case as {@link CommandKind} classifies names), optionally narrowed by a
 * payload predicate (field → glob, see {@link #appliesTo}), the level to apply. {@code earnAfter} and
 * {@code earnWindow} matter only for {@link TrustLevel#EARNED}: auto after that many executed approvals
 * within the window with no denial since.
 */
public record TrustRule(String id, String ownerId, Optional<String> agentId, String intent,
        Map<String, String> predicate, TrustLevel level, int earnAfter, Duration earnWindow) {

    public TrustRule {
        Require.text(id, "id");
        Require.text(ownerId, "ownerId");
        agentId = Objects.requireNonNullElse(agentId, Optional.empty());
        Require.text(intent, "intent");
        predicate = predicate == null ? Map.of() : Map.copyOf(predicate);
        Objects.requireNonNull(level, "level");
        earnWindow = Objects.requireNonNullElse(earnWindow, Duration.ZERO);
        if (level == TrustLevel.EARNED && (earnAfter < 1 || earnWindow.isNegative() || earnWindow.isZero())) {
            throw new IllegalArgumentException("an earned rule needs earnAfter >= 1 and a positive earnWindow");
        }
    }

    /** A rule of any level but {@link TrustLevel#EARNED}, which needs its earning terms. */
    public static TrustRule of(String id, String ownerId, Optional<String> agentId, String intent,
            Map<String, String> predicate, TrustLevel level) {
        return new TrustRule(id, ownerId, agentId, intent, predicate, level, 0, Duration.ZERO);
    }

    /**
     * Whether the rule speaks for this agent, intent and payload. The predicate holds when every field is
     * present and matches its glob ({@code *} any run of characters, {@code ?} exactly one); a list-valued
     * field matches only when every element does, so one outside recipient keeps the whole email gated.
     * Address globs (containing {@code @}) compare case-insensitively and only ever match one address.
     */
    public boolean appliesTo(String agentId, String intent, Map<String, Object> payload) {
        return this.agentId.map(scoped -> scoped.equals(agentId)).orElse(true)
                && Glob.matches(this.intent, intent, true)
                && PayloadPredicate.holds(predicate, payload == null ? Map.of() : payload);
    }
}
