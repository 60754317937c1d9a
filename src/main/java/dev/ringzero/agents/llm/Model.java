package dev.ringzero.agents.llm;

/**
 * The model a session talks to: one turn per call, blocking its (worker) thread while the model
 * thinks. Never throws for anything the server did: a failure is a {@link ModelReply.Failed}.
 */
interface Model {

    default ModelReply ask(ModelCall call) {
        return ask(call, () -> { });
    }

    /**
     * As {@link #ask(ModelCall)}, calling {@code onReplyHead} on the asking thread when the reply
     * begins to arrive (its status and headers read, its body not yet), before it is read; not at
     * all if no reply arrives.
     */
    ModelReply ask(ModelCall call, Runnable onReplyHead);

    /**
     * The node's rehearsal of a turn: {@code call} written as this client's request and a reply
     * calling {@code asked} (null: a final answer) written as its server would send it, then read
     * through the client's own mapping; nothing is sent. A model without a wire of its own has
     * nothing to rehearse and fails.
     */
    default ModelReply rehearse(ModelCall call, ToolCall asked) {
        return new ModelReply.Failed("model_unrehearsed", "this model has no wire to rehearse");
    }
}
