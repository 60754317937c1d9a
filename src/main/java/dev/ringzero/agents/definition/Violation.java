package dev.ringzero.agents.definition;

import java.util.Objects;

/**
 * One reason a definition cannot be saved.
 *
 * @param path    JSON Pointer (RFC 6901) into the submitted definition, e.g. {@code /actions/0/command};
 *                for a missing or unknown field it names that field ({@code /triggers/0/cron})
 * @param code    stable machine-readable reason, one of the constants below
 * @param message what went wrong, for a person
 */
public record Violation(String path, String code, String message) {

    public static final String SCHEMA = "schema";
    public static final String UNKNOWN_GADGET = "unknown_gadget";
    public static final String ACTION_GADGET_NOT_BOUND = "action_gadget_not_bound";
    public static final String UNREGISTERED_COMMAND = "unregistered_command";
    public static final String COMMAND_NOT_ALLOWED = "command_not_allowed";
    public static final String PRIVILEGED_COMMAND = "privileged_command";
    public static final String PHYSICAL_NOT_GRANTED = "physical_not_granted";
    public static final String MISSING_PARAM = "missing_param";
    public static final String UNKNOWN_PARAM = "unknown_param";
    public static final String PARAM_TYPE = "param_type";
    public static final String TEMPLATE_INVALID = "template_invalid";
    public static final String TEMPLATE_UNKNOWN_ROOT = "template_unknown_root";
    public static final String UNKNOWN_TOOL = "unknown_tool";
    public static final String UNKNOWN_INTENT = "unknown_intent";
    public static final String INTENT_NOT_ALLOWED = "intent_not_allowed";
    public static final String ACTIONS_REQUIRED = "actions_required";
    public static final String INSTRUCTIONS_REQUIRED = "instructions_required";
    public static final String INVALID_CRON = "invalid_cron";
    public static final String INVALID_TIME_ZONE = "invalid_time_zone";
    public static final String INVALID_HOURS = "invalid_hours";
    public static final String TRIGGER_GADGET_NOT_BOUND = "trigger_gadget_not_bound";
    public static final String UNKNOWN_EVENT = "unknown_event";
    public static final String BUDGET_EXCEEDS_LIMIT = "budget_exceeds_limit";
    public static final String STATE_TOO_LARGE = "state_too_large";
    public static final String COOLDOWN_WAIT_NEEDS_QUEUED = "cooldown_wait_needs_queued";
    public static final String ON_GATE_NEEDS_RULES = "on_gate_needs_rules";

    public Violation {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
    }

    /**
     * Builds a JSON Pointer from reference tokens, escaping {@code ~} and {@code /} as RFC 6901 asks.
     * {@code pointer("actions", 0, "params", "a/b")} is {@code /actions/0/params/a~1b}; no tokens is
     * the whole document, {@code ""}.
     */
    public static String pointer(Object... tokens) {
        StringBuilder out = new StringBuilder();
        for (Object token : tokens) {
            out.append('/').append(String.valueOf(token).replace("~", "~0").replace("/", "~1"));
        }
        return out.toString();
    }

    /** The pointer {@code base} extended by more tokens: {@code under("/actions/0", "command")}. */
    public static String under(String base, Object... tokens) {
        return base + pointer(tokens);
    }
}
