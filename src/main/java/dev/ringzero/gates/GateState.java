package dev.ringzero.gates;

import java.util.Locale;

/**
 * A gate's lifecycle (CONTRACTS.md §4): {@code pending → approved → executing → executed | failed},
 * or {@code pending → denied | expired | fenced}.
 */
public enum GateState {
    PENDING, APPROVED, EXECUTING, EXECUTED, FAILED, DENIED, EXPIRED, FENCED;

    public boolean terminal() {
        return this == EXECUTED || this == FAILED || this == DENIED || this == EXPIRED || this == FENCED;
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static GateState fromWire(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
