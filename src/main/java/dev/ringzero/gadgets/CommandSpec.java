package dev.ringzero.gadgets;

import java.util.Map;

/**
 * One command a gadget registered in {@code commands_v2}: what it needs and how long the
 * platform waits for its {@code link.result}. A description teaches authors how to call the
 * command; it never grants a permission.
 */
public record CommandSpec(
        String name,
        String description,
        Map<String, ParamSpec> required,
        Map<String, ParamSpec> optional,
        long timeoutMs) {

    public static final long DEFAULT_TIMEOUT_MS = 30_000;

    public CommandSpec {
        required = required == null ? Map.of() : Map.copyOf(required);
        optional = optional == null ? Map.of() : Map.copyOf(optional);
        timeoutMs = timeoutMs > 0 ? timeoutMs : DEFAULT_TIMEOUT_MS;
    }

    /** True if a parameter of this name is registered, required or optional. */
    public boolean knowsParam(String param) {
        return required.containsKey(param) || optional.containsKey(param);
    }

    /** A parameter of a registered command: its JSON type ({@code string}, {@code number}, ...). */
    public record ParamSpec(String type, String description) {
    }
}
