package dev.ringzero.kernel;

import java.util.Arrays;
import java.util.Locale;

/**
 * Why the kernel refused, as stable wire codes ({@link #wire()}) for run records, the decisions API and
 * audit. Some reasons are <em>fences</em>: the policy a piece of work was admitted under has been
 * withdrawn, so the work ends {@code fenced} rather than {@code denied} and nothing queued under the old
 * policy may run.
 */
public enum DenyReason {
    /** Unknown gadget, or another account's: callers answer 404, never a detail that confirms it exists. */
    NOT_FOUND,
    /** The gadget is no longer paired: a fence. */
    UNPAIRED,
    /** The gadget is not connected now; the run ends {@code skipped_offline}. */
    OFFLINE,
    /** The gadget does not register this command now. */
    UNREGISTERED_COMMAND,
    /** The command or intent is not in the agent's allowlist (a fence when the grant was revoked). */
    NOT_ALLOWED,
    /** A moving command without the agent's {@code allow.physical} (a fence when it was revoked). */
    PHYSICAL_NOT_GRANTED,
    /** {@code device.ota}, {@code device.discover}, {@code device.unpair}: never for agents or clients. */
    PRIVILEGED,
    /** Background sound during the gadget's quiet hours. */
    QUIET_HOURS,
    /** The agent is disabled: a fence. */
    AGENT_DISABLED,
    /** The run's revision is no longer the agent's current one: a fence. */
    REVISION_STALE,
    /** No such agent for this account (deleted, or another account's): a fence for its queued work. */
    AGENT_UNKNOWN,
    /** The owner's trust rule says never. */
    TRUST_DENY,
    /** Another mover holds the gadget (one at a time, for at most 10 s; a stop frees it): {@link MoverLease}. */
    MOVER_BUSY,
    /** The parameters do not fit the command as the gadget registered it (missing, unknown, wrong type). */
    INVALID_PARAMS;

    /** Lower-case code, e.g. {@code revision_stale}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The reason for a wire code. */
    public static DenyReason fromWire(String wire) {
        return Arrays.stream(values()).filter(reason -> reason.wire().equals(wire)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown deny reason: " + wire));
    }

    /**
     * Fences whatever the history: the agent disabled, revised or gone, or the gadget unpaired. Work
     * admitted earlier must end {@code fenced}.
     */
    public boolean isFence() {
        return switch (this) {
            case AGENT_DISABLED, REVISION_STALE, AGENT_UNKNOWN, UNPAIRED -> true;
            default -> false;
        };
    }

    /** A missing grant: {@link #NOT_ALLOWED} or {@link #PHYSICAL_NOT_GRANTED}. */
    public boolean isMissingGrant() {
        return this == NOT_ALLOWED || this == PHYSICAL_NOT_GRANTED;
    }

    /**
     * Whether work refused for this reason ends {@code fenced}. The kernel cannot tell a revoked grant
     * from one that never existed, so the caller says whether the grant was held when the work was
     * queued: a grant removed since then fences; a grant that never existed is a plain denial.
     */
    public boolean isFence(boolean grantHeldWhenQueued) {
        return isFence() || (grantHeldWhenQueued && isMissingGrant());
    }
}
