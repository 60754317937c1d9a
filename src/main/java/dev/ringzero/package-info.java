/**
 * RingZero: a platform that hosts gadget agents behind a policy kernel and a human approval desk.
 *
 * <p>The root package holds the application and the few types every package may use: {@link
 * dev.ringzero.Refusal} (a refused request in the domain's words, which the web layer alone turns into
 * HTTP), {@link dev.ringzero.Batches} (work in one transaction, which the engine implements), {@link
 * dev.ringzero.TransactionReads}, {@link dev.ringzero.TriedAgain} (a transaction tried again after a
 * conflict) and {@link dev.ringzero.StoredJson}. It imports none of its
 * subpackages. The package map and the rules {@code ArchitectureTest} enforces are drawn in
 * {@code docs/architecture.md}.
 */
package dev.ringzero;
