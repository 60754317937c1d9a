package dev.ringzero.agents.llm;

import java.util.List;

/** One message of a model session's conversation, as RingZero builds it from the run's record. */
sealed interface Message {

    /** The platform's rules and the definition's instructions. */
    record System(String text) implements Message {
    }

    /** What the run knows: its trigger (marked as untrusted data), the agent's state, its briefing. */
    record User(String text) implements Message {
    }

    /** A turn the model took: its text and the tools it asked for. */
    record Assistant(String text, List<ToolCall> toolCalls) implements Message {
        public Assistant {
            text = text == null ? "" : text;
            toolCalls = List.copyOf(toolCalls);
        }
    }

    /** What became of one tool call, as the model reads it. */
    record ToolResult(String callId, String name, String content) implements Message {
    }
}
