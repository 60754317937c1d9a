package dev.ringzero.agents.llm;

/**
 * The model a session talks to: one turn per call, blocking its (worker) thread while the model
 * thinks. Never throws for anything the server did: a failure is a {@link ModelReply.Failed}.
 */
interface Model {

    ModelReply ask(ModelCall call);
}
