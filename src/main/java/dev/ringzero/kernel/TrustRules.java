package dev.ringzero.kernel;

import java.util.List;

/**
 * The port to the owner's trust ladder entries. Order matters: the first matching rule wins, so the
 * adapter returns them in the order the owner arranged them.
 */
@FunctionalInterface
public interface TrustRules {

    /** No rules at all: every intent falls back to its default. */
    TrustRules NONE = ownerId -> List.of();

    /** The owner's rules, in the owner's order. */
    List<TrustRule> rulesOf(String ownerId);
}
