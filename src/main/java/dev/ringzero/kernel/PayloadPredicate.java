package dev.ringzero.kernel;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A trust rule's payload predicate: field → glob, every field must match. Built to fail closed, because
 * a match can turn a gate into auto: a missing or null field, an empty list, a nested object and a
 * string holding several addresses never match.
 */
final class PayloadPredicate {

    /** One bare address: exactly one {@code @}, no separators, display names or whitespace. */
    private static final Pattern ONE_ADDRESS = Pattern.compile("[^\\s@,;<>\"()]+@[^\\s@,;<>\"()]+");

    private PayloadPredicate() {
    }

    static boolean holds(Map<String, String> predicate, Map<String, Object> payload) {
        // a missing field reads as null, and null never matches
        return predicate.entrySet().stream()
                .allMatch(field -> valueMatches(field.getValue(), payload.get(field.getKey())));
    }

    private static boolean valueMatches(String glob, Object value) {
        List<Object> elements = elements(value);
        return elements != null && !elements.isEmpty()
                && elements.stream().allMatch(element -> scalarMatches(glob, element));
    }

    /** The values to check: a list's elements, or the value itself; null when it is no value at all. */
    private static List<Object> elements(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Collection<?> collection) {
            return new ArrayList<>(collection);
        }
        if (value.getClass().isArray()) {
            List<Object> items = new ArrayList<>();
            for (int i = 0; i < Array.getLength(value); i++) {
                items.add(Array.get(value, i));
            }
            return items;
        }
        return List.of(value);
    }

    private static boolean scalarMatches(String glob, Object value) {
        if (!(value instanceof CharSequence || value instanceof Number || value instanceof Boolean
                || value instanceof Character || value instanceof Enum<?>)) {
            return false;
        }
        String text = value.toString();
        if (glob.indexOf('@') >= 0) {
            // an address glob: "*@ourco.com" must not match "x@evil.org, y@ourco.com"
            return ONE_ADDRESS.matcher(text).matches() && Glob.matches(glob, text, true);
        }
        return Glob.matches(glob, text, false);
    }
}
