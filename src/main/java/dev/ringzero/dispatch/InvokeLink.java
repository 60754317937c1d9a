package dev.ringzero.dispatch;

/**
 * The dispatcher's way out to a device: publishes a {@code link.invoke} envelope on the
 * gadget's invoke topic and returns once the broker has it. Only {@link Dispatcher} calls it
 * (an ArchUnit rule keeps it so); the MQTT gateway implements it.
 */
public interface InvokeLink {

    void invoke(String gadgetId, byte[] envelope);
}
