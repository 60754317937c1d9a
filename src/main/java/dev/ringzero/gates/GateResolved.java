package dev.ringzero.gates;

/**
 * Told, in the transaction that resolved it, that a gate reached an outcome its agent may act on
 * (denied, expired, executed, failed); {@link Continuations} wakes the agent after the commit.
 */
interface GateResolved {

    void resolved(Gate gate);
}
