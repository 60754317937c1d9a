package dev.ringzero.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

/** A latency histogram in microseconds (1 µs .. 10 min, 3 significant digits), safe for concurrent recording. */
final class Latency {

    private final Histogram histogram;

    Latency() {
        this(600_000_000L, 3);
    }

    /** @param highestMicros largest value kept exactly; larger ones are clamped to it */
    Latency(long highestMicros, int digits) {
        histogram = new Histogram(highestMicros, digits);
    }

    synchronized void recordNanos(long nanos) {
        histogram.recordValue(Math.max(1, Math.min(nanos / 1_000, histogram.getHighestTrackableValue())));
    }

    synchronized Histogram copy() {
        return histogram.copy();
    }

    synchronized long count() {
        return histogram.getTotalCount();
    }

    /** Milliseconds of a microsecond value. */
    static double ms(long micros) {
        return Math.round(micros / 10.0) / 100.0;
    }

    /** {count, p50, p95, p99, p999, max, mean} in ms. */
    ObjectNode toJson() {
        Histogram h = copy();
        ObjectNode n = Rest.JSON.createObjectNode();
        n.put("count", h.getTotalCount());
        if (h.getTotalCount() == 0) {
            return n;
        }
        n.put("p50_ms", ms(h.getValueAtPercentile(50)));
        n.put("p95_ms", ms(h.getValueAtPercentile(95)));
        n.put("p99_ms", ms(h.getValueAtPercentile(99)));
        n.put("p999_ms", ms(h.getValueAtPercentile(99.9)));
        n.put("max_ms", ms(h.getMaxValue()));
        n.put("mean_ms", Math.round(h.getMean() / 10.0) / 100.0);
        return n;
    }
}
