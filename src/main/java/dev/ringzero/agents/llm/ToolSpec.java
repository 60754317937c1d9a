package dev.ringzero.agents.llm;

/**
 * A tool as the model sees it: its name on the wire ({@link ToolNames}), what it does, and the JSON
 * Schema of its arguments. {@code capability} is what ring 0 grants: a device command, a platform
 * tool or a ring-3 intent.
 */
record ToolSpec(String name, String capability, Kind kind, String description, String inputSchema) {

    /** Where a call of the tool goes. */
    enum Kind {
        /** A bound gadget's command: a run action, through the kernel and the dispatcher. */
        COMMAND,
        /** A platform tool ({@code state.get}, {@code calendar.today}, ...): the kernel, then run here. */
        TOOL,
        /** A ring-3 intent ({@code email.send}, {@code webhook.post}): an envelope, as any run's. */
        INTENT
    }
}
