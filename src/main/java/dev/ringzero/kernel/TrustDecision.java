package dev.ringzero.kernel;

import java.util.Objects;
import java.util.Optional;

/**
 * What the trust ladder decided and which rule decided it (empty: the intent's default), so every gate,
 * auto-execution and refusal can say why.
 */
public record TrustDecision(TrustLevel effective, Optional<String> ruleId) {

    public TrustDecision {
        Objects.requireNonNull(effective, "effective");
        ruleId = Objects.requireNonNullElse(ruleId, Optional.empty());
        if (effective == TrustLevel.EARNED) {
            throw new IllegalArgumentException("earned resolves to auto or gate before it is a decision");
        }
    }

    /** The decision as a kernel verdict: auto allows, gate gates, deny refuses with {@code trust_deny}. */
    public Verdict verdict() {
        return switch (effective) {
            case AUTO -> Verdict.ALLOW;
            case GATE -> new Verdict.Gate(ruleId.orElse(null));
            default -> new Verdict.Deny(DenyReason.TRUST_DENY,
                    ruleId.map(id -> "trust rule " + id + " denies this").orElse("denied by default"));
        };
    }
}
