package dev.ringzero.kernel;

import java.util.Locale;
import java.util.Set;

/**
 * What a command or intent does to the world, which decides the checks it needs. Classified from the
 * name alone, case-insensitively, so neither firmware nor an agent can dodge a class by spelling:
 *
 * <ul>
 *   <li>{@link #PRIVILEGED}: {@code device.ota}, {@code device.discover}, {@code device.unpair}.</li>
 *   <li>{@link #MOVE}: anything in {@code chassis.*}, {@code arm.*}, {@code servo.*}, {@code motor.*}
 *       except their {@code stop} and their {@code status} (a reading, which moves nothing: {@link #OTHER}).</li>
 *   <li>{@link #STOP}: {@code chassis.stop}, {@code arm.stop}, {@code servo.stop}, {@code motor.stop},
 *       {@code speaker.stop}. A stop only ever makes a device quieter or stiller, so it needs no physical
 *       grant, is not gated by default and is not held back by quiet hours.</li>
 *   <li>{@link #SOUND}: {@code speaker.*} except {@code speaker.stop}.</li>
 *   <li>{@link #RING3}: ecosystem integrations, {@code email.*} and {@code webhook.*}.</li>
 *   <li>{@link #OTHER}: everything else ({@code display.*}, …).</li>
 * </ul>
 */
public enum CommandKind {
    PRIVILEGED,
    MOVE,
    STOP,
    SOUND,
    RING3,
    OTHER;

    private static final Set<String> PRIVILEGED_COMMANDS = Set.of("device.ota", "device.discover", "device.unpair");
    private static final Set<String> MOVING_NAMESPACES = Set.of("chassis", "arm", "servo", "motor");
    private static final Set<String> RING3_NAMESPACES = Set.of("email", "webhook");

    /** The kind of a command or intent name such as {@code speaker.say}. */
    public static CommandKind of(String name) {
        String lower = Require.text(name, "name").toLowerCase(Locale.ROOT);
        if (PRIVILEGED_COMMANDS.contains(lower)) {
            return PRIVILEGED;
        }
        String namespace = namespace(lower);
        String verb = lower.substring(lower.lastIndexOf('.') + 1);
        boolean stop = verb.equals("stop");
        if (MOVING_NAMESPACES.contains(namespace)) {
            return stop ? STOP : verb.equals("status") ? OTHER : MOVE;
        }
        if (namespace.equals("speaker")) {
            return stop ? STOP : SOUND;
        }
        return RING3_NAMESPACES.contains(namespace) ? RING3 : OTHER;
    }

    /** A stop of motion ({@code chassis.stop}, {@code arm.stop}, …), not of sound: it frees a gadget's mover. */
    public static boolean stopsMotion(String name) {
        if (of(name) != STOP) {
            return false;
        }
        return MOVING_NAMESPACES.contains(namespace(name.toLowerCase(Locale.ROOT)));
    }

    /** What comes before the first dot of a lower-case name (the whole name if it has none). */
    private static String namespace(String lower) {
        int dot = lower.indexOf('.');
        return dot < 0 ? lower : lower.substring(0, dot);
    }

    /** Moving commands need the agent's explicit {@code allow.physical}. */
    public boolean needsPhysicalGrant() {
        return this == MOVE;
    }

    /**
     * The trust level when no owner rule matches: irreversible effects in the world (movement, ring-3
     * integrations) wait for a human; privileged commands never pass; everything else runs.
     */
    public TrustLevel defaultTrust() {
        return switch (this) {
            case MOVE, RING3 -> TrustLevel.GATE;
            case PRIVILEGED -> TrustLevel.DENY;
            default -> TrustLevel.AUTO;
        };
    }
}
