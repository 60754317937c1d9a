/**
 * REST plumbing: the one door to {@code /api/**} (credentials, body limit), the {@link
 * dev.ringzero.accounts.Caller} argument, the one advice that renders every refusal and framework
 * error as problem+json ({@link dev.ringzero.web.Problems}), and the OpenAPI description.
 * Controllers live with their features and throw {@link dev.ringzero.Refusal}.
 *
 * <p>May use: {@code accounts}, the root. No package outside it imports it.
 */
package dev.ringzero.web;
