package dev.ringzero.agents.definition;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.samskivert.mustache.BasicCollector;
import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Logic-less templates in action parameters, such as {@code "Woof ({{event.data.strength}})"}.
 *
 * <p>Only plain variable tags ({@code {{a.b}}}, {@code {{{a.b}}}}) are allowed, each a dotted name
 * under one of the {@link #ROOTS}. Sections, inverted sections, partials, blocks and delimiter changes
 * are refused: a parameter is data, not a program, and anything an author or a model writes here must
 * not be able to loop, call, or reach beyond the context it is given. Rendering reads Maps and Lists
 * only (never getters by reflection), renders a missing value as the empty string, and never escapes
 * HTML, because the output goes to a device, not a browser.
 */
public final class Templates {

    /** The names a template may start with; the run supplies one context entry for each. */
    public static final Set<String> ROOTS = Set.of("event", "gadget", "state", "run", "trigger");

    private static final Pattern TAG_NAME = Pattern.compile("^[a-zA-Z_][a-zA-Z0-9_]*+(?:\\.[a-zA-Z0-9_]++)*+$");

    private static final String OPEN = "{{";
    private static final String CLOSE = "}}";

    private static final Mustache.Compiler COMPILER = Mustache.compiler()
            .escapeHTML(false)
            .defaultValue("")
            .withCollector(new MapsOnlyCollector())
            .withFormatter(Templates::format);

    private Templates() {
    }

    /** True if {@code text} contains a template tag and so is rendered rather than sent verbatim. */
    public static boolean isTemplate(String text) {
        return text != null && text.contains(OPEN);
    }

    /**
     * Why {@code template} may not be used, as violations at {@code path}; empty if it is fine. A string
     * without any tag is always fine.
     */
    public static List<Violation> check(String template, String path) {
        if (!isTemplate(template)) {
            return List.of();
        }
        if (template.contains(OPEN + "=")) {
            return List.of(invalid(path, "changing the template delimiters is not allowed"));
        }
        if (hasUnclosedTag(template)) {
            // jmustache would print an unclosed "{{" as text; it is almost surely a typo.
            return List.of(invalid(path, "a '{{' is never closed with '}}'"));
        }
        Template compiled;
        try {
            compiled = COMPILER.compile(template);
        } catch (RuntimeException e) {
            return List.of(invalid(path, "the template does not parse: " + e.getMessage()));
        }
        List<Violation> violations = new ArrayList<>();
        compiled.visit(new Mustache.Visitor() {
            @Override
            public void visitText(String text) {
            }

            @Override
            public void visitVariable(String name) {
                if (!TAG_NAME.matcher(name).matches()) {
                    violations.add(invalid(path,
                            "'{{" + name + "}}' is not a plain dotted name such as {{event.data.x}}"));
                    return;
                }
                String root = name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
                if (!ROOTS.contains(root)) {
                    violations.add(new Violation(path, Violation.TEMPLATE_UNKNOWN_ROOT,
                            "'{{" + name + "}}' must start with one of " + ROOTS.stream().sorted().toList()));
                }
            }

            @Override
            public boolean visitInclude(String name) {
                violations.add(invalid(path, "partials ({{>" + name + "}}) are not allowed"));
                return false;
            }

            @Override
            public boolean visitParent(String name) {
                violations.add(invalid(path, "parent templates ({{<" + name + "}}) are not allowed"));
                return false;
            }

            @Override
            public boolean visitBlock(String name) {
                violations.add(invalid(path, "blocks ({{$" + name + "}}) are not allowed"));
                return false;
            }

            @Override
            public boolean visitSection(String name) {
                violations.add(invalid(path, "sections ({{#" + name + "}}) are not allowed"));
                return false;
            }

            @Override
            public boolean visitInvertedSection(String name) {
                violations.add(invalid(path, "inverted sections ({{^" + name + "}}) are not allowed"));
                return false;
            }
        });
        return List.copyOf(violations);
    }

    /**
     * {@code template} with its tags replaced from {@code context} (nested Maps, Lists, JSON nodes and
     * scalars). Missing values become empty strings. A string that fails {@link #check} is returned as
     * it is, unrendered: this method never throws and never runs anything but a variable lookup.
     */
    public static String render(String template, Map<String, Object> context) {
        if (!isTemplate(template)) {
            return template == null ? "" : template;
        }
        if (!check(template, "").isEmpty()) {
            return template;
        }
        try {
            return COMPILER.compile(template).execute(plain(context == null ? Map.of() : context));
        } catch (RuntimeException e) {
            return template;
        }
    }

    /**
     * {@code params} with every string rendered, inside nested maps and lists too; other values are
     * returned unchanged. The result is a new, modifiable map in the same order.
     */
    public static Map<String, Object> renderParams(Map<String, Object> params, Map<String, Object> context) {
        Map<String, Object> plainContext = asMap(plain(context == null ? Map.of() : context));
        Map<String, Object> out = new LinkedHashMap<>();
        if (params != null) {
            params.forEach((key, value) -> out.put(key, renderValue(value, plainContext)));
        }
        return out;
    }

    private static Object renderValue(Object value, Map<String, Object> context) {
        if (value instanceof String text) {
            return render(text, context);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((key, item) -> out.put(String.valueOf(key), renderValue(item, context)));
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(item -> out.add(renderValue(item, context)));
            return out;
        }
        return value;
    }

    /** Turns JSON nodes anywhere in the context into Maps, Lists and scalars the collector can walk. */
    private static Object plain(Object value) {
        if (value instanceof JsonNode node) {
            return SpecJson.MAPPER.convertValue(node, Object.class);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((key, item) -> out.put(String.valueOf(key), plain(item)));
            return out;
        }
        if (value instanceof Collection<?> collection) {
            List<Object> out = new ArrayList<>(collection.size());
            collection.forEach(item -> out.add(plain(item)));
            return out;
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
    }

    /** Maps and lists render as JSON, so {{event.data}} gives {"a":1}, not Java's {a=1}. */
    private static CharSequence format(Object value) {
        if (value instanceof Map<?, ?> || value instanceof Collection<?>) {
            try {
                return SpecJson.MAPPER.writeValueAsString(value);
            } catch (JsonProcessingException e) {
                return String.valueOf(value);
            }
        }
        return String.valueOf(value);
    }

    private static boolean hasUnclosedTag(String template) {
        int open = template.indexOf(OPEN);
        while (open >= 0) {
            int close = template.indexOf(CLOSE, open + OPEN.length());
            if (close < 0) {
                return true;
            }
            open = template.indexOf(OPEN, close + CLOSE.length());
        }
        return false;
    }

    private static Violation invalid(String path, String message) {
        return new Violation(path, Violation.TEMPLATE_INVALID, message);
    }

    /**
     * Looks values up in Maps and Lists (by index) only. jmustache's default collector would also call
     * getters and read fields by reflection, which would let {@code {{gadget.class.classLoader}}}
     * wander into the JVM.
     */
    private static final class MapsOnlyCollector extends BasicCollector {
        @Override
        public <K, V> Map<K, V> createFetcherCache() {
            return new ConcurrentHashMap<>();
        }
    }
}
