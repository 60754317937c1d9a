package dev.ringzero.agents.definition;

import java.util.List;
import java.util.Objects;

/** The verdict on a submitted definition: the parsed spec, or every reason it was refused. */
public sealed interface Validation {

    /** The definition may be saved as this spec (defaults filled in). */
    record Valid(AgentSpec spec) implements Validation {
        public Valid {
            Objects.requireNonNull(spec, "spec");
        }
    }

    /** The definition was refused; never empty. */
    record Invalid(List<Violation> violations) implements Validation {
        public Invalid {
            violations = List.copyOf(violations);
            if (violations.isEmpty()) {
                throw new IllegalArgumentException("an invalid definition needs at least one violation");
            }
        }
    }
}
