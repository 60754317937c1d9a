package dev.ringzero.cluster;

/**
 * Which partition a gadget belongs to. Every node must compute the same answer for the same
 * gadget with the same count: {@link String#hashCode} is specified by the Java language, the
 * same on every JVM.
 */
public final class Partitions {

    private Partitions() {
    }

    public static int of(String gadgetId, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("a cluster needs at least one partition");
        }
        return Math.floorMod(gadgetId.hashCode(), count);
    }
}
