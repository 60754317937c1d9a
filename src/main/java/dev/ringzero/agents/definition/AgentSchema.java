package dev.ringzero.agents.definition;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonNodePath;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The v1 definition's JSON Schema (draft 2020-12), shipped as
 * {@value #RESOURCE} and checked with networknt's validator. The shape is the schema's job alone;
 * nothing in this package re-checks it by hand.
 */
public final class AgentSchema {

    public static final String RESOURCE = "schemas/gadget-agent-v1.schema.json";

    /** Keywords whose message names a property of the object at the instance location. */
    private static final Set<String> PROPERTY_KEYWORDS =
            Set.of("required", "additionalProperties", "unevaluatedProperties", "dependentRequired");

    private static final JsonNode DOCUMENT = load();

    private static final JsonSchema SCHEMA = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
            .getSchema(DOCUMENT, SchemaValidatorsConfig.builder().locale(Locale.ENGLISH).build());

    private AgentSchema() {
    }

    /** The schema document itself, e.g. to serve at {@code GET /api/v1/schemas/gadget-agent}. */
    public static JsonNode document() {
        return DOCUMENT.deepCopy();
    }

    /**
     * Every way {@code definition} departs from the schema, as {@code schema} violations whose path
     * names the offending field: for a missing or unknown property the path ends in its name.
     */
    public static List<Violation> validate(JsonNode definition) {
        if (definition == null || definition.isMissingNode() || definition.isNull()) {
            return List.of(new Violation("", Violation.SCHEMA, "a definition must be a JSON object"));
        }
        Set<Violation> violations = new LinkedHashSet<>();
        // a number too large for a double reads as an infinity, which the validator cannot compare
        // with an enum or a bound (it throws): out of range is a violation of its own, found first
        outOfRange(definition, new ArrayList<>(), violations);
        if (!violations.isEmpty()) {
            return List.copyOf(violations);
        }
        for (ValidationMessage message : SCHEMA.validate(definition)) {
            violations.add(new Violation(pointerOf(message), Violation.SCHEMA, message.getError()));
        }
        return List.copyOf(new ArrayList<>(violations));
    }

    private static void outOfRange(JsonNode node, List<Object> path, Set<Violation> violations) {
        if (node.isNumber() && (node.isDouble() || node.isFloat()) && !Double.isFinite(node.doubleValue())) {
            violations.add(new Violation(Violation.pointer(path.toArray()), Violation.SCHEMA,
                    "number out of range"));
        } else if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                path.add(field.getKey());
                outOfRange(field.getValue(), path, violations);
                path.remove(path.size() - 1);
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                path.add(i);
                outOfRange(node.get(i), path, violations);
                path.remove(path.size() - 1);
            }
        }
    }

    private static String pointerOf(ValidationMessage message) {
        JsonNodePath location = message.getInstanceLocation();
        List<Object> tokens = new ArrayList<>();
        for (int i = 0; i < location.getNameCount(); i++) {
            tokens.add(location.getElement(i));
        }
        if (message.getProperty() != null && PROPERTY_KEYWORDS.contains(message.getType())) {
            tokens.add(message.getProperty());
        }
        return Violation.pointer(tokens.toArray());
    }

    private static JsonNode load() {
        try (InputStream in = AgentSchema.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing classpath resource " + RESOURCE);
            }
            return SpecJson.MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
