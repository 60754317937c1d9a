package dev.ringzero.web.mcp;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;

/**
 * The SDK's schema check on the platform's own JSON Schema library: the SDK's default validator is
 * written for a later major version of the same library than the definitions' validator uses, and
 * one class path holds one version. Public so that test clients can use it too.
 */
public final class SchemaValidator implements JsonSchemaValidator {

    private final ObjectMapper json;

    public SchemaValidator(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
        JsonNode schemaNode = json.valueToTree(schema);
        JsonNode content = structuredContent instanceof String text ? parse(text) : json.valueToTree(structuredContent);
        var errors = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                .getSchema(schemaNode, SchemaValidatorsConfig.builder().locale(Locale.ENGLISH).build())
                .validate(content);
        if (errors.isEmpty()) {
            return ValidationResponse.asValid(content.toString());
        }
        return ValidationResponse.asInvalid(errors.stream().map(Object::toString).collect(Collectors.joining("; ")));
    }

    private JsonNode parse(String text) {
        try {
            return json.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return json.getNodeFactory().textNode(text);
        }
    }
}
