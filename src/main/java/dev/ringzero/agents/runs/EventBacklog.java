package dev.ringzero.agents.runs;

import java.time.Duration;

/**
 * Device reactions come first: the device events this node has admitted and not yet routed
 * (implemented by the router's admission). An llm session's reply waits, briefly, until none does
 * before it is recorded and its run moves on (agents.llm), so the sessions' turns take the node's
 * idle moments rather than the rules runs' (a gadget's reaction is expected in milliseconds, a
 * model's turn in seconds).
 */
public interface EventBacklog {

    /** No backlog to wait for (a node that routes no events). */
    EventBacklog NONE = max -> true;

    /** Waits at most {@code max} until no device event waits to be routed here; false if one still does. */
    boolean awaitQuiet(Duration max) throws InterruptedException;
}
