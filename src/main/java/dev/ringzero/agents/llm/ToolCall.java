package dev.ringzero.agents.llm;

/** A tool call the model asked for: its id, the tool's name as the model saw it, the arguments' JSON text. */
record ToolCall(String id, String name, String arguments) {

    ToolCall {
        id = id == null ? "" : id;
        name = name == null ? "" : name;
        arguments = arguments == null ? "" : arguments;
    }
}
