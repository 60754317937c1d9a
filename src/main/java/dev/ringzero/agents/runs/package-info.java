/**
 * Ring 1's runs: admission (the kernel's verdict, budgets, concurrency), the rules executor that
 * renders each action and asks ring 0 to send it, the speaker floor's part in a run, answers and
 * deadlines, run history, dry runs and the decision ledger.
 *
 * <p>Owns the ports {@link dev.ringzero.agents.runs.RunEngine} (start a run: the agent-run process)
 * and {@link dev.ringzero.agents.runs.GateDesk} (file a gate: the approval desk), and, package-private,
 * what its parts need of the dispatcher ({@code ActionLink}), the speaker floor ({@code Speakers})
 * and the agents ({@code RunAgents}), so that each part is tested with fakes. {@code AgentRuns} is
 * the facade the agent-run process's delegates call; each step's decisions live in its parts. May use: {@code
 * agents}, {@code agents.definition}, {@code dispatch}, {@code gadgets}, {@code policy}, {@code
 * accounts}, {@code kernel}, the root.
 */
package dev.ringzero.agents.runs;
