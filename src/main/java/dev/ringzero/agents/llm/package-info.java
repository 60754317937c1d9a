/**
 * Ring 1's {@code llm} runtime: a run's bounded model session. The session is the agent-run
 * process's model loop; this package records every turn and tool call ({@code SessionStore}), plays
 * turns off the engine on worker threads ({@code ModelTurns}, against any OpenAI-compatible
 * endpoint through Spring AI, {@code OpenAiCompatibleModel}), and hands each tool call to ring 0:
 * a device command becomes a run action (the dispatcher sends it), a platform tool is decided by
 * the kernel ({@code PolicyKernel#decideTool}) and run here ({@code LocalTools}), an intent is an
 * envelope. See docs/llm-agents.md.
 *
 * <p>Implements {@link dev.ringzero.agents.runs.ModelSessions} (the run loop's port); owns
 * {@link dev.ringzero.agents.llm.SessionWake} (implemented by the workflow). May use: {@code
 * agents}, {@code agents.definition}, {@code agents.runs}, {@code gates}, {@code gadgets}, {@code
 * ecosystem}, {@code kernel}, the root.
 */
package dev.ringzero.agents.llm;
