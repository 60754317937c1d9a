/**
 * Several nodes on one database and one broker (issue 24): which node admits which gadgets'
 * messages. Gadgets are hashed to a fixed number of partitions; each partition is held by one
 * node at a time with a lease in the shared database ({@code rz_partition_lease}), renewed while
 * the node lives and taken over by another once it lapses. {@link dev.ringzero.cluster.PartitionPlan}
 * decides (plain Java), {@link dev.ringzero.cluster.PartitionKeeper} records and tells the
 * {@link dev.ringzero.cluster.PartitionOwner} (the link, which opens the partition's MQTT session).
 *
 * <p>May use: the root. Used by: {@code gateway}.
 */
package dev.ringzero.cluster;
