/**
 * The approval desk: a gated action frozen into a gate ({@link dev.ringzero.gates.Envelopes}, the
 * trust ladder), its lifecycle ({@link dev.ringzero.gates.GateService}, the facade over one class per
 * rule: filing, auto-execution, decisions, exactly-once execution and settlement, expiry, fences,
 * briefing), exactly-once execution by intent executors, reconciliation after a crash, the audit, the
 * agent's journal and continuations.
 *
 * <p>Owns the ports {@link dev.ringzero.gates.GateEngine} (the gate process) and {@link
 * dev.ringzero.gates.IntentExecutor} (ring 3 implements it). May use: {@code agents}, {@code
 * agents.runs}, {@code agents.definition}, {@code dispatch}, {@code router} (the inbox), {@code
 * gadgets}, {@code accounts}, {@code kernel}, the root.
 */
package dev.ringzero.gates;
