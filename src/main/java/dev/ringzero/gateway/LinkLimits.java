package dev.ringzero.gateway;

/** The link contract's limits (docs/contracts.md §1). */
public final class LinkLimits {

    public static final int MAX_MESSAGE_BYTES = 256 * 1024;
    public static final int MAX_EVENTS = 16;
    public static final int MAX_INSTRUCTIONS_CHARS = 1_500;
    public static final int MAX_COMMANDS = 64;
    public static final long MAX_TIMEOUT_MS = 600_000;

    private LinkLimits() {
    }
}
