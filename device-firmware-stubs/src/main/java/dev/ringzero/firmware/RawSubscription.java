package dev.ringzero.firmware;

import java.time.Duration;
import java.util.List;

/**
 * A subscription a test opened through a board's own connection, to prove what the
 * broker lets that device read (for instance, nothing on another device's
 * {@code invoke} topic).
 */
public final class RawSubscription {

    /** SUBACK return code for a refused subscription (MQTT 3.1.1). */
    static final int REFUSED = 0x80;

    private final String topicFilter;
    private final BoundedLog<RawMessage> messages = new BoundedLog<>(10_000);
    private volatile Boolean granted;

    RawSubscription(String topicFilter) {
        this.topicFilter = topicFilter;
    }

    public String topicFilter() {
        return topicFilter;
    }

    /**
     * True when the broker granted the subscription, false when its SUBACK refused it
     * (0x80), null while not yet answered (the board was offline). Some brokers grant
     * and then deliver nothing: check {@link #messages()} as well.
     */
    public Boolean granted() {
        return granted;
    }

    public List<RawMessage> messages() {
        return messages.snapshot();
    }

    /** True once at least n messages arrived; false on timeout. */
    public boolean awaitMessages(int n, Duration timeout) {
        return messages.awaitTotal(n, timeout);
    }

    void granted(int qos) {
        this.granted = qos != REFUSED;
    }

    void add(RawMessage message) {
        messages.add(message);
    }
}
