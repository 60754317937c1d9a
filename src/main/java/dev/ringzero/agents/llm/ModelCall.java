package dev.ringzero.agents.llm;

import java.util.List;

/** What one model turn is asked: the conversation so far, the tools the model may call, a ceiling of tokens. */
record ModelCall(List<Message> messages, List<ToolSpec> tools, int maxTokens) {

    ModelCall {
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
    }
}
