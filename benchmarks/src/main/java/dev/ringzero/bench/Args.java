package dev.ringzero.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code --name value} flags; every flag has a default so a bare command runs the documented defaults. */
final class Args {

    private final Map<String, String> values = new LinkedHashMap<>();

    Args(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("expected --name value, got " + a);
            }
            int eq = a.indexOf('=');
            if (eq > 0) {
                values.put(a.substring(2, eq), a.substring(eq + 1));
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                values.put(a.substring(2), args[++i]);
            } else {
                values.put(a.substring(2), "true");
            }
        }
    }

    String text(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    String required(String name) {
        String v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing --" + name);
        }
        return v;
    }

    int integer(String name, int fallback) {
        return values.containsKey(name) ? Integer.parseInt(values.get(name)) : fallback;
    }

    long longValue(String name, long fallback) {
        return values.containsKey(name) ? Long.parseLong(values.get(name)) : fallback;
    }

    double number(String name, double fallback) {
        return values.containsKey(name) ? Double.parseDouble(values.get(name)) : fallback;
    }

    boolean flag(String name) {
        return Boolean.parseBoolean(values.getOrDefault(name, "false"));
    }

    Map<String, String> all() {
        return values;
    }
}
