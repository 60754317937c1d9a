/**
 * Ring 3: integrations that act outside the platform ({@code email.send} over SMTP,
 * {@code webhook.post} over HTTP(S) to allowlisted hosts). Each is an
 * {@link dev.ringzero.gates.IntentExecutor}: it runs only on the trusted side, after the kernel or a
 * human approved the exact payload, holds the credential the agent never sees, and writes its
 * pre-send record ({@link dev.ringzero.gates.Attempts}) before anything leaves, so a crash is
 * reconciled and never re-sent blindly.
 *
 * <p>May use: {@code gates}, {@code accounts}, {@code kernel}, the root. Nothing uses it but Spring's
 * wiring: the desk finds executors by the intents they handle. Its subpackage {@code calendar} reads
 * (the owner's calendar feed, for the {@code llm} tools) and sends nothing, so it needs no gate.
 */
package dev.ringzero.ecosystem;
