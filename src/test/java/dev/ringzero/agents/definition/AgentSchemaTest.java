package dev.ringzero.agents.definition;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.NullNode;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import org.junit.jupiter.api.Test;

class AgentSchemaTest {

    @Test
    void theSchemaIsItselfValidDraft202012() {
        var metaSchema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                .getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));

        assertThat(metaSchema.validate(AgentSchema.document())).isEmpty();
    }

    @Test
    void pinsTheApiVersion() {
        assertThat(AgentSchema.document().at("/properties/apiVersion/const").textValue()).isEqualTo(AgentSpec.API_VERSION);
    }

    @Test
    void refusesANullBodyAtTheRoot() {
        assertThat(AgentSchema.validate(NullNode.getInstance()))
                .extracting(Violation::path)
                .containsExactly("");
        assertThat(AgentSchema.validate(null)).hasSize(1);
    }

    @Test
    void escapesPointerTokensInPropertyNames() {
        var definition = Fixtures.json(Fixtures.BARK).put("a/b~c", 1);

        assertThat(AgentSchema.validate(definition))
                .extracting(Violation::path)
                .containsExactly("/a~1b~0c");
    }

    @Test
    void reportsEveryShapeErrorAtOnce() {
        var definition = Fixtures.json(Fixtures.BARK).put("name", 5).put("kind", "script").put("x", 1);

        assertThat(AgentSchema.validate(definition))
                .extracting(Violation::path)
                .containsExactlyInAnyOrder("/name", "/kind", "/x");
    }
}
