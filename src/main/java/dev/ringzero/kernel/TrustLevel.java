package dev.ringzero.kernel;

import java.util.Arrays;
import java.util.Locale;

/**
 * A rung of the trust ladder. {@link #EARNED} is a configured level only: the ladder resolves it to
 * {@link #AUTO} or {@link #GATE} from the owner's recent decisions, so a decision is never "earned".
 */
public enum TrustLevel {
    /** Execute without asking. */
    AUTO,
    /** File a gate; a human decides. */
    GATE,
    /** Gate until enough approvals were executed without a denial, then auto. */
    EARNED,
    /** Never, and do not ask. */
    DENY;

    /** Lower-case name, e.g. {@code earned}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The level for a wire name. */
    public static TrustLevel fromWire(String wire) {
        return Arrays.stream(values()).filter(level -> level.wire().equals(wire)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown trust level: " + wire));
    }
}
