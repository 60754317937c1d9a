package dev.ringzero.agents.llm;

/**
 * The model a session talks to: one turn per call, blocking its (worker) thread while the model
 * thinks. Never throws for anything the server did: a failure is a {@link ModelReply.Failed}.
 */
interface Model {

    ModelReply ask(ModelCall call);

    /**
     * The node's rehearsal of a turn: what this client makes of {@code completion}, an answer its
     * server could give to {@code call}, through its own mapping of both, with nothing sent. A
     * model without a wire of its own has nothing to rehearse and fails.
     */
    default ModelReply rehearse(ModelCall call, String completion) {
        return new ModelReply.Failed("model_unrehearsed", "this model has no wire to rehearse");
    }
}
