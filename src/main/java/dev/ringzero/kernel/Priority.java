package dev.ringzero.kernel;

import java.util.Locale;

/**
 * Precedence classes for a gadget's shared resources (speaker, movers) and for quiet hours. Declaration
 * order is precedence order, highest first:
 *
 * <ol>
 *   <li>{@link #INTERACTION} — the person's own interaction: the owner's direct command path and a
 *       gadget's interaction events (push-to-talk). It pre-empts background sound and is exempt from
 *       quiet hours, because the person is right there asking.</li>
 *   <li>{@link #APPROVED_GATE} — a gate the owner approved: a human said yes to exactly this action,
 *       so it is also exempt from quiet hours, but it waits its turn rather than cutting anyone off.</li>
 *   <li>{@link #EXPLICIT} — "run it now": a person asked for the run, but not for this exact action.</li>
 *   <li>{@link #PROACTIVE} — events and schedules: nobody is waiting, so it yields to everything.</li>
 * </ol>
 *
 * A subject can never claim more than its {@link Subject#ceiling()}; see {@link #cappedAt(Priority)}.
 */
public enum Priority {
    INTERACTION,
    APPROVED_GATE,
    EXPLICIT,
    PROACTIVE;

    /** Whether this class goes before {@code other}. */
    public boolean outranks(Priority other) {
        return ordinal() < other.ordinal();
    }

    /** This priority, lowered to {@code ceiling} if it claims more: precedence is granted, never taken. */
    public Priority cappedAt(Priority ceiling) {
        return outranks(ceiling) ? ceiling : this;
    }

    /** Quiet hours hold back background sound only; a person present or a human approval overrides them. */
    public boolean exemptFromQuietHours() {
        return this == INTERACTION || this == APPROVED_GATE;
    }

    /** Lower-case name for records and APIs. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
