package dev.ringzero.cluster;

/**
 * Who acts on the partitions this node holds: the link, which takes a held partition's messages
 * from the broker and hands them to admission. Told by {@link PartitionKeeper}, one call at a time.
 */
public interface PartitionOwner {

    /** The partition is this node's now: start taking its messages. */
    void take(int partition);

    /**
     * The partition goes to another node: stop taking its messages and return once those already
     * taken are settled (stored or handed back to the broker), so that the next holder never
     * admits a gadget's event before this node has finished with the gadget's earlier ones.
     */
    void giveUp(int partition);
}
