package dev.ringzero.agents.llm;

import java.util.List;

/** What a model turn came back with: an answer (text, tool calls, tokens) or a failure a person can read. */
sealed interface ModelReply {

    /**
     * The model answered. No tool calls means its final answer. {@code tokensIn}/{@code tokensOut}
     * are the server's usage figures, or an estimate where it reports none.
     */
    record Answered(String text, List<ToolCall> toolCalls, int tokensIn, int tokensOut) implements ModelReply {
        public Answered {
            text = text == null ? "" : text;
            toolCalls = List.copyOf(toolCalls);
        }

        boolean isFinal() {
            return toolCalls.isEmpty();
        }
    }

    /**
     * The turn failed: {@code code} is stable ({@code model_unreachable}, {@code model_timeout},
     * {@code model_error}, {@code model_garbage}), {@code message} says what happened.
     */
    record Failed(String code, String message) implements ModelReply {
    }
}
