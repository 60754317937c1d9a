package dev.ringzero.gadgets;

/**
 * What pairing needs of the MQTT link, owned here and implemented by the gateway: where devices
 * connect, which login names are the platform's own, and the notices an unpaired device gets.
 */
public interface PairingLink {

    /** The broker URL a newly paired device is told to connect to. */
    String brokerUrl();

    /** True if a gadget id would read as one of the platform's own broker logins. */
    boolean reserved(String gadgetId);

    /** Tells the device, while it is still connected, that it was unpaired ({@code link.unpaired}). */
    void tellUnpaired(String gadgetId);

    /** Clears the device's retained presence once its credential is revoked. */
    void clearPresence(String gadgetId);
}
