/**
 * Ring 1's runs: admission (the kernel's verdict, budgets, concurrency), the rules executor that
 * renders each action and asks ring 0 to send it, the speaker floor's part in a run, answers and
 * deadlines, run history, dry runs and the decision ledger.
 *
 * <p>Owns the ports {@link dev.ringzero.agents.runs.RunEngine} (start a run: the agent-run process)
 * and {@link dev.ringzero.agents.runs.GateDesk} (file a gate: the approval desk). May use: {@code
 * agents}, {@code agents.definition}, {@code dispatch}, {@code gadgets}, {@code policy}, {@code
 * accounts}, {@code kernel}, the root.
 */
package dev.ringzero.agents.runs;
