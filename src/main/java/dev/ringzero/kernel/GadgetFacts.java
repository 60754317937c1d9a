package dev.ringzero.kernel;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the kernel needs to know about a gadget right now: whose it is, whether it is paired and
 * connected, which commands it registers at this moment, and its quiet hours if the owner set any.
 */
public record GadgetFacts(String id, String ownerId, boolean paired, boolean online, Set<String> registeredCommands,
        Optional<QuietHours> quietHours) {

    public GadgetFacts {
        Require.text(id, "id");
        Require.text(ownerId, "ownerId");
        registeredCommands = Require.frozen(registeredCommands);
        quietHours = Objects.requireNonNullElse(quietHours, Optional.empty());
    }
}
