/**
 * Adapters of the kernel's ports over RingZero's tables and memory: the facts the kernel decides on
 * ({@link dev.ringzero.policy.StorePolicyFacts}), the speaker floor ({@link
 * dev.ringzero.policy.SpeakerFloor}, in memory or, in a cluster, in the shared database: {@code
 * rz_speaker_line}, {@code rz_speaker_hold}) and the mover leases ({@link dev.ringzero.policy.Movers}, in
 * the shared database: {@code rz_mover_lease}).
 *
 * <p>Owns the port {@link dev.ringzero.policy.AgentFactsSource} (the agents package implements it). May
 * use: {@code gadgets}, {@code kernel}, the root.
 */
package dev.ringzero.policy;
