package dev.ringzero.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.support.Api;
import dev.ringzero.support.PlatformTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The OpenAPI description is public and describes the contract's routes. */
class OpenApiTest extends PlatformTest {

    @LocalServerPort
    int port;

    @Test
    void theDescriptionListsTheContractRoutesAndTheBearerScheme() {
        JsonNode api = Api.at(port).get("/v3/api-docs").json();

        assertThat(api.path("paths").fieldNames()).toIterable().contains("/api/v1/gadgets", "/api/v1/gadgets/{id}",
                "/api/v1/gadgets/{id}/commands", "/api/v1/gadgets/events", "/api/v1/gadget-agents",
                "/api/v1/gadget-agents/{id}", "/api/v1/gadget-agents/{id}/dry-run", "/api/v1/gadget-agents/dry-run",
                "/api/v1/gadget-agents/{id}/runs", "/api/v1/runs/{runId}", "/api/v1/gadget-agents/{id}/decisions",
                "/api/v1/schemas/gadget-agent", "/api/v1/gates", "/api/v1/gates/{id}/approve", "/api/v1/inbox",
                "/api/v1/admin/accounts", "/api/v1/admin/service-tokens");
        assertThat(api.at("/components/securitySchemes/bearer/scheme").asText()).isEqualTo("bearer");
    }
}
