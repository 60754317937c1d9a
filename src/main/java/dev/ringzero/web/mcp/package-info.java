/**
 * The owner's personal agent's door: the Model Context Protocol over streamable HTTP at {@code /mcp}
 * (the MCP Java SDK's servlet transport). Behind the same credential filter as {@code /api/**}: every
 * request carries the owner's Bearer token, every tool acts as that owner through the same services
 * the REST controllers call, and a session stays with the owner who opened it. Its tools are
 * adapters like the controllers: they parse arguments, call one service and render the answer; a
 * {@link dev.ringzero.Refusal} becomes a tool error ({@code isError}) with its slug and, for a
 * definition, every {@code {path, code, message}}. The owner's inbox is a resource a client may
 * subscribe to; only the owner's own sessions hear that it changed. Gates are listed, never decided.
 *
 * <p>May use: {@code web} (the credential filter's caller), {@code agents}, {@code agents.runs},
 * {@code agents.definition}, {@code agents.llm}, {@code gadgets}, {@code dispatch}, {@code gates},
 * {@code router}, {@code accounts}, the root. Nothing uses it but Spring's wiring.
 */
package dev.ringzero.web.mcp;
