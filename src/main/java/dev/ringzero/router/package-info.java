/**
 * Event admission and routing: each {@code link.event} is stored once (duplicates dropped),
 * matched against the enabled agents, recorded in the decision ledger and either starts runs or
 * lands in the owner's inbox (the main-chat fallback); stale events are shed visibly.
 *
 * <p>May use: {@code agents}, {@code agents.definition}, {@code agents.runs} (through its {@link
 * dev.ringzero.agents.runs.RunEngine} port), {@code gadgets}, {@code accounts}, {@code kernel}, the root.
 */
package dev.ringzero.router;
