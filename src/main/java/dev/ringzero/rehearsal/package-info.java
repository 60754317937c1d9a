/**
 * The node's rehearsal of its hot path before it reports healthy (issue 25's cold node): events
 * admitted, routed and run, and their answers settled, in transactions that never commit.
 * It depends on the rings it rehearses; nothing depends on it.
 */
package dev.ringzero.rehearsal;
