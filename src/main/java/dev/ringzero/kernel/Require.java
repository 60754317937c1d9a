package dev.ringzero.kernel;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Argument checks shared by the kernel's records, so a malformed message fails where it is built. */
final class Require {

    private Require() {
    }

    static String text(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
        return value;
    }

    static <K, V> Map<K, V> frozen(Map<K, V> map) {
        // not Map.copyOf: rendered JSON parameters may legitimately carry null values
        return map == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    static <T> Set<T> frozen(Set<T> set) {
        return set == null ? Set.of() : Set.copyOf(set);
    }
}
