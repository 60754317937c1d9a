package dev.ringzero.web.mcp;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.AgentViews;
import dev.ringzero.agents.llm.Drafts;
import dev.ringzero.agents.runs.DryRun;
import dev.ringzero.agents.runs.RunViews;
import dev.ringzero.dispatch.DirectCommands;
import dev.ringzero.gadgets.GadgetListings;
import dev.ringzero.gates.GateService;
import dev.ringzero.router.InboxService;
import dev.ringzero.web.ApiAuthenticationFilter;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Wires the MCP server: the SDK's streamable HTTP servlet at {@code /mcp} (behind the API's
 * credential filter, which {@code web.ApiSecurityConfig} also maps there, and {@link SessionOwners}),
 * the tools and the inbox resource, and the inbox's notifications.
 */
@Configuration
class McpServerConfig {

    static final String ENDPOINT = "/mcp";

    @Bean
    McpJsonMapper mcpJsonMapper(ObjectMapper json) {
        return new JacksonMcpJsonMapper(json.copy());
    }

    @Bean
    SessionOwners mcpSessionOwners() {
        return new SessionOwners();
    }

    @Bean
    HttpServletStreamableServerTransportProvider mcpTransport(McpJsonMapper mcpJson,
            @Value("${ringzero.mcp.keep-alive:PT25S}") Duration keepAlive,
            @Value("${ringzero.mcp.allowed-origins:}") List<String> allowedOrigins) {
        return HttpServletStreamableServerTransportProvider.builder().jsonMapper(mcpJson).mcpEndpoint(ENDPOINT)
                .keepAliveInterval(keepAlive)
                // a request from a web page (it has an Origin) is refused unless that origin is listed:
                // desktop clients send none; a page must never drive the owner's tools (DNS rebinding)
                .securityValidator(DefaultServerTransportSecurityValidator.builder()
                        .allowedOrigins(allowedOrigins.stream().filter(origin -> !origin.isBlank()).toList())
                        .build())
                .contextExtractor(request -> {
                    Map<String, Object> context = new HashMap<>();
                    Object caller = request.getAttribute(ApiAuthenticationFilter.CALLER);
                    if (caller != null) {
                        context.put(McpTools.CALLER, caller);
                    }
                    return McpTransportContext.create(context);
                })
                .build();
    }

    @Bean
    ServletRegistrationBean<HttpServletStreamableServerTransportProvider> mcpServlet(
            HttpServletStreamableServerTransportProvider transport) {
        var registration = new ServletRegistrationBean<>(transport, ENDPOINT, ENDPOINT + "/*");
        registration.setName("ringzeroMcp");
        registration.setAsyncSupported(true);
        registration.setLoadOnStartup(1);
        return registration;
    }

    /** After the credential filter (order 10), which puts the caller on the request. */
    @Bean
    FilterRegistrationBean<SessionOwners> mcpSessionFilter(SessionOwners owners) {
        var registration = new FilterRegistrationBean<>(owners);
        registration.setUrlPatterns(List.of(ENDPOINT, ENDPOINT + "/*"));
        registration.setName("ringzeroMcpSessions");
        registration.setOrder(11);
        return registration;
    }

    @Bean(destroyMethod = "close")
    McpSyncServer mcpServer(HttpServletStreamableServerTransportProvider transport, SessionOwners owners,
            McpJsonMapper mcpJson, ObjectMapper json, GadgetListings gadgets, DirectCommands commands,
            AgentService agents, AgentViews agentViews, DryRun dryRun, RunViews runs, GateService gates,
            InboxService inbox, ObjectProvider<Drafts> drafts) {
        McpTools tools = new McpTools(json, mcpJson, gadgets, commands, agents, agentViews, dryRun, runs, gates,
                inbox, drafts);
        return McpServer.sync(new OwnerScopedTransport(transport, owners))
                .serverInfo(new McpSchema.Implementation("ringzero", "RingZero", "1"))
                .instructions("RingZero hosts gadget agents for the owner whose token you hold. To author one: "
                        + "list_gadgets, get_definition_schema and get_catalogue; create_agent (fix every "
                        + "{path, code, message} it returns and call again); dry_run; enable_agent. Use "
                        + "list_runs, get_run and explain_runs to see what happened and why. Gates are for the "
                        + "person to approve, never for you.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(true, false).build())
                .jsonMapper(mcpJson)
                .jsonSchemaValidator(new SchemaValidator(json))
                // the tools read their own arguments (ToolArguments): one error shape, with a slug
                .validateToolInputs(false)
                .immediateExecution(true)
                .tools(tools.specifications())
                .resources(new InboxResource(inbox, json).specification())
                .build();
    }

    @Bean
    InboxAnnouncer mcpInboxAnnouncer(McpSyncServer server) {
        return new InboxAnnouncer(server);
    }

    /** A new inbox message, once committed, is announced to its owner's subscribed sessions. */
    static final class InboxAnnouncer {

        private final McpSyncServer server;

        InboxAnnouncer(McpSyncServer server) {
            this.server = server;
        }

        @TransactionalEventListener(fallbackExecution = true)
        void posted(InboxService.Posted posted) {
            InboxResource.announce(server.getAsyncServer(), posted);
        }
    }
}
