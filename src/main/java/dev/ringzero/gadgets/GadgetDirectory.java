package dev.ringzero.gadgets;

import java.util.Optional;

/**
 * How validation learns which gadgets an owner has and what they registered. Kept to one question so
 * validation needs neither the gateway nor a database.
 */
@FunctionalInterface
public interface GadgetDirectory {

    /**
     * The gadget {@code gadgetId} if it is paired and belongs to {@code ownerId}; empty for an unknown
     * id, an unpaired gadget and another owner's gadget alike, so callers cannot tell them apart.
     */
    Optional<GadgetView> find(String ownerId, String gadgetId);
}
