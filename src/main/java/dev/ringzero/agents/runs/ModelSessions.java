package dev.ringzero.agents.runs;

import java.util.Optional;

/**
 * An {@code llm} run's model session as the run's loop sees it (implemented by
 * {@code dev.ringzero.agents.llm}). The loop is the same as a rules run's: actions are dispatched
 * one at a time through the kernel; an llm run's actions are the device commands its model asked
 * for, and once all of them are settled the model takes its next turn.
 */
public interface ModelSessions {

    /** No model runtime: every llm run ends {@code llm_unconfigured}; rules runs are untouched. */
    ModelSessions NONE = new ModelSessions() {
        @Override
        public boolean configured() {
            return false;
        }

        @Override
        public boolean wantsTurn(RunStore.Run run) {
            return false;
        }

        @Override
        public Optional<Object> transcript(String runId) {
            return Optional.empty();
        }
    };

    /** Whether a model is configured; without one an llm run ends {@code failed} at admission. */
    boolean configured();

    /**
     * Called once every action of a running llm run is settled: whether the model takes another
     * turn. False when the session is over: a final answer, or a budget or failure that ended the
     * run (this call may end it).
     */
    boolean wantsTurn(RunStore.Run run);

    /** Tokens the run's model session spent (in and out, every turn); 0 for a run without one. */
    default int tokensSpent(String runId) {
        return 0;
    }

    /** The session's transcript for the run's view (turns, tokens, tool calls and verdicts); empty if none. */
    Optional<Object> transcript(String runId);
}
