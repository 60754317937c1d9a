package dev.ringzero.gadgets;

import java.util.Optional;

/** The one question dispatch asks of a gadget's registration: this command's spec, its timeout. */
@FunctionalInterface
public interface RegisteredCommands {

    /** The command as the gadget registered it; empty if it did not (or is unknown). */
    Optional<CommandSpec> command(String gadgetId, String command);
}
