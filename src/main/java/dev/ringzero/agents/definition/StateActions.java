package dev.ringzero.agents.definition;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What a rules agent's state actions ({@code state.set}, {@code state.merge},
 * {@code state.increment}) mean: the shape their params must have (checked when a definition is
 * saved, templates standing in for values) and the state each leaves (applied to the state as it is
 * when the action runs, so a compare-and-set can apply it again to a fresher copy).
 */
public final class StateActions {

    /** A top-level key of the state document. */
    private static final Pattern KEY = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]{0,63}$");

    /** One problem with an action's params, as the validator reports it. */
    public record Problem(String param, String code, String message) {
    }

    /** What applying an action gave: the new state, or why it cannot apply (a stable code and a sentence). */
    public sealed interface Applied permits Written, Refused {
    }

    public record Written(ObjectNode state) implements Applied {
    }

    public record Refused(String code, String message) implements Applied {
    }

    private StateActions() {
    }

    /** The params' problems; {@code templated} says whether a value is a template, filled in only at run time. */
    public static List<Problem> problems(String action, JsonNode params, java.util.function.Predicate<JsonNode> templated) {
        List<Problem> problems = new ArrayList<>();
        JsonNode key = params.get("key");
        switch (action) {
            case "state.set" -> {
                key(key, problems);
                if (!params.has("value")) {
                    problems.add(new Problem("value", Violation.MISSING_PARAM, "state.set needs a 'value'"));
                }
                unknown(params, List.of("key", "value"), problems);
            }
            case "state.merge" -> {
                JsonNode value = params.get("value");
                if (value == null) {
                    problems.add(new Problem("value", Violation.MISSING_PARAM, "state.merge needs a 'value' object"));
                } else if (!value.isObject()) {
                    problems.add(new Problem("value", Violation.PARAM_TYPE, "state.merge's 'value' must be an object"));
                } else {
                    value.fieldNames().forEachRemaining(name -> {
                        if (!KEY.matcher(name).matches()) {
                            problems.add(new Problem("value", Violation.PARAM_TYPE, "'" + name
                                    + "' is not a state key (letters, digits and _, at most 64)"));
                        }
                    });
                }
                unknown(params, List.of("value"), problems);
            }
            case "state.increment" -> {
                key(key, problems);
                JsonNode by = params.get("by");
                if (by != null && !by.isNumber() && !templated.test(by)) {
                    problems.add(new Problem("by", Violation.PARAM_TYPE, "'by' must be a number"));
                }
                unknown(params, List.of("key", "by"), problems);
            }
            default -> problems.add(new Problem("", Violation.SCHEMA, "'" + action + "' is not a state action"));
        }
        return problems;
    }

    /** The state after {@code action} with its rendered {@code params}; {@code state} is left as it was. */
    public static Applied apply(String action, Map<String, Object> params, ObjectNode state) {
        ObjectNode next = state.deepCopy();
        Object key = params.get("key");
        switch (action) {
            case "state.set" -> {
                if (!validKey(key)) {
                    return badKey(key);
                }
                next.set((String) key, SpecJson.MAPPER.valueToTree(params.get("value")));
            }
            case "state.merge" -> {
                JsonNode value = SpecJson.MAPPER.valueToTree(params.get("value"));
                if (!value.isObject()) {
                    return new Refused("invalid_params", "state.merge's 'value' must be an object");
                }
                next.setAll((ObjectNode) value);
            }
            case "state.increment" -> {
                if (!validKey(key)) {
                    return badKey(key);
                }
                BigDecimal by;
                try {
                    Object raw = params.getOrDefault("by", 1);
                    by = new BigDecimal(String.valueOf(raw == null ? 1 : raw).trim());
                } catch (NumberFormatException e) {
                    return new Refused("invalid_params", "'by' must be a number, got '" + params.get("by") + "'");
                }
                JsonNode current = next.get((String) key);
                if (current != null && !current.isNull() && !current.isNumber()) {
                    return new Refused("not_a_number", "state." + key + " is " + current.getNodeType()
                            .name().toLowerCase(java.util.Locale.ROOT) + ", not a number");
                }
                BigDecimal sum = (current == null || current.isNull() ? BigDecimal.ZERO : current.decimalValue()).add(by);
                if (sum.stripTrailingZeros().scale() <= 0 && sum.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) < 0) {
                    next.put((String) key, sum.longValueExact());
                } else {
                    next.put((String) key, sum);
                }
            }
            default -> {
                return new Refused("unknown_action", "'" + action + "' is not a state action");
            }
        }
        return new Written(next);
    }

    private static void key(JsonNode key, List<Problem> problems) {
        if (key == null) {
            problems.add(new Problem("key", Violation.MISSING_PARAM, "a state action needs a 'key'"));
        } else if (!key.isTextual() || !KEY.matcher(key.textValue()).matches()) {
            problems.add(new Problem("key", Violation.PARAM_TYPE,
                    "'key' must be a state key: letters, digits and _, at most 64, not a template"));
        }
    }

    private static void unknown(JsonNode params, List<String> known, List<Problem> problems) {
        params.fieldNames().forEachRemaining(name -> {
            if (!known.contains(name)) {
                problems.add(new Problem(name, Violation.UNKNOWN_PARAM, "'" + name + "' is not a param of this action; "
                        + "it takes " + known));
            }
        });
    }

    private static boolean validKey(Object key) {
        return key instanceof String text && KEY.matcher(text).matches();
    }

    private static Refused badKey(Object key) {
        return new Refused("invalid_params", "'" + key + "' is not a state key");
    }
}
