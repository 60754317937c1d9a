package dev.ringzero.web;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The OpenAPI description's frame: what RingZero is and how clients authenticate. */
@Configuration
class OpenApiConfig {

    @Bean
    OpenAPI ringZeroOpenApi() {
        return new OpenAPI()
                .info(new Info().title("RingZero API").version("v1").description("""
                        Gadget agents behind a policy kernel. Owners call every route with \
                        `Authorization: Bearer <token>` (from POST /api/v1/admin/accounts); admin routes take \
                        HTTP Basic of the administrator; a gateway service token may only call \
                        POST /api/v1/gadgets/events. Errors are application/problem+json with a stable `type`; \
                        another account's resources answer 404."""))
                .components(new Components()
                        .addSecuritySchemes("bearer", new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer"))
                        .addSecuritySchemes("adminBasic", new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("basic")))
                .addSecurityItem(new SecurityRequirement().addList("bearer"));
    }
}
