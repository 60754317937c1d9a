package dev.ringzero;

import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * JSON is read as written: a number or a boolean is not a string ({@code {"id": true}} is not the
 * gadget {@code "true"}). With {@code spring.jackson.deserialization.fail-on-trailing-tokens}, a
 * body is one JSON document and nothing after it.
 */
@Configuration
class StrictJson {

    @Bean
    Jackson2ObjectMapperBuilderCustomizer scalarsAreNotText() {
        return builder -> builder.postConfigurer(mapper -> {
            var textual = mapper.coercionConfigFor(LogicalType.Textual);
            textual.setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
            textual.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
            textual.setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
        });
    }
}
