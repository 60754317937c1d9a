/**
 * Ring 1's gadget agents: saved definitions with their revisions, the enable switch, state,
 * trigger matching ({@link dev.ringzero.agents.TriggerMatcher}) and schedules.
 *
 * <p>Owns the port {@link dev.ringzero.agents.RunRecords} (an agent's last run and budget use, which
 * the runs package implements). May use: {@code agents.definition}, {@code gadgets}, {@code policy},
 * {@code accounts}, {@code kernel}, the root. Never the runs, the dispatcher or the engine.
 */
package dev.ringzero.agents;
