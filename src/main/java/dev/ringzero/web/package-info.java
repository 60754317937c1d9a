/**
 * REST plumbing: the one door to {@code /api/**} and {@code /mcp} (credentials, body limit), the {@link
 * dev.ringzero.accounts.Caller} argument, the one advice that renders every refusal and framework
 * error as problem+json ({@link dev.ringzero.web.Problems}), and the OpenAPI description.
 * Controllers live with their features and throw {@link dev.ringzero.Refusal}.
 *
 * <p>May use: {@code accounts}, the root. No package outside it imports it. Its subpackage {@code mcp} is
 * the MCP server, an adapter over the features' services.
 */
package dev.ringzero.web;
