package dev.ringzero.gadgets;

/**
 * The broker's side of pairing: which device credentials it accepts. The embedded broker
 * asks the platform's data on every connect; Mosquitto is provisioned over its control topic.
 */
public interface BrokerAccess {

    /** Lets the device connect as {@code gadgetId} with this password, to its own subtree only. */
    void provision(String gadgetId, String password);

    /** Refuses the credential from now on and closes the device's open connections. */
    void revoke(String gadgetId);

    /**
     * The gadget ids the broker holds a credential of its own for; {@link CredentialSweep} revokes
     * those whose gadget is unpaired.
     */
    java.util.Set<String> credentialed();
}
