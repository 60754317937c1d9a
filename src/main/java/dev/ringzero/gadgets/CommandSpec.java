package dev.ringzero.gadgets;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;

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

    /** One thing wrong with a command's parameters, named by the parameter. */
    public record ParamProblem(String param, Kind kind, String message) {

        public enum Kind { MISSING, UNKNOWN, WRONG_TYPE }
    }

    /**
     * What is wrong with {@code params} for this command as the gadget registered it: a required
     * parameter missing, one it does not know, or one of another JSON type; empty if nothing is.
     * {@code decidedLater} accepts a value whose type is known only once it is rendered (a template
     * at definition time; nothing at dispatch, where every value is final).
     */
    public List<ParamProblem> problems(JsonNode params, Predicate<JsonNode> decidedLater) {
        List<ParamProblem> problems = new ArrayList<>();
        for (String param : required.keySet().stream().sorted().toList()) {
            if (!params.has(param)) {
                problems.add(new ParamProblem(param, ParamProblem.Kind.MISSING,
                        "'" + name + "' needs parameter '" + param + "'"));
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = params.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            ParamSpec spec = required.containsKey(field.getKey()) ? required.get(field.getKey())
                    : optional.get(field.getKey());
            if (spec == null) {
                problems.add(new ParamProblem(field.getKey(), ParamProblem.Kind.UNKNOWN,
                        "'" + name + "' has no parameter '" + field.getKey() + "'"));
            } else if (!decidedLater.test(field.getValue()) && !hasType(field.getValue(), spec.type())) {
                problems.add(new ParamProblem(field.getKey(), ParamProblem.Kind.WRONG_TYPE,
                        "'" + field.getKey() + "' must be of type " + spec.type() + ", not "
                                + field.getValue().getNodeType().name().toLowerCase(Locale.ROOT)));
            }
        }
        return problems;
    }

    /** Whether a JSON value is of a registered parameter type; an unknown or absent type accepts any. */
    public static boolean hasType(JsonNode value, String type) {
        if (type == null) {
            return true;
        }
        return switch (type.toLowerCase(Locale.ROOT)) {
            case "string" -> value.isTextual();
            case "number" -> value.isNumber();
            case "integer" -> value.isIntegralNumber()
                    || (value.isFloatingPointNumber() && value.decimalValue().stripTrailingZeros().scale() <= 0);
            case "boolean" -> value.isBoolean();
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            default -> true;
        };
    }
}
