package dev.ringzero.web.mcp;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.Refusal;
import dev.ringzero.accounts.Caller;
import dev.ringzero.router.InboxService;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The owner's inbox as an MCP resource: events no agent took (the main-chat fallback) and notices
 * for the owner, newest first. One URI for every owner, read as the caller; a client that subscribes
 * hears {@code notifications/resources/updated} when a message is posted to its own owner's inbox,
 * after the posting transaction commits ({@link OwnerScopedTransport} keeps it to that owner).
 */
final class InboxResource {

    static final String URI = "ringzero://inbox";
    static final int LIMIT = 50;

    private static final Logger log = LoggerFactory.getLogger(InboxResource.class);

    private final InboxService inbox;
    private final ObjectMapper json;

    InboxResource(InboxService inbox, ObjectMapper json) {
        this.inbox = inbox;
        this.json = json;
    }

    SyncResourceSpecification specification() {
        McpSchema.Resource resource = McpSchema.Resource.builder().uri(URI).name("inbox").title("My inbox")
                .description("The owner's inbox, newest first (the latest " + LIMIT + "): events from the gadgets "
                        + "that no agent took, and notices addressed to the owner. Subscribe to hear when a new "
                        + "one arrives.")
                .mimeType("application/json").build();
        return new SyncResourceSpecification(resource, (exchange, request) -> {
            Caller caller = (Caller) exchange.transportContext().get(McpTools.CALLER);
            if (caller == null) {
                throw McpError.builder(McpSchema.ErrorCodes.INVALID_REQUEST).message("unauthorized").build();
            }
            return read(caller.accountId());
        });
    }

    private McpSchema.ReadResourceResult read(String ownerId) {
        try {
            String text = json.writerWithDefaultPrettyPrinter()
                    .writeValueAsString(Map.of("messages", inbox.list(ownerId, LIMIT)));
            return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(URI,
                    "application/json", text)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        } catch (Refusal refusal) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_REQUEST).message(refusal.getMessage()).build();
        }
    }

    /** Tells the owner's subscribed sessions that their inbox changed; never blocks the poster. */
    static void announce(McpAsyncServer server, InboxService.Posted posted) {
        server.notifyResourcesUpdated(OwnerScopedTransport.updated(URI, posted.ownerId()))
                .subscribe(null, e -> log.warn("inbox notification for {} failed", posted.ownerId(), e));
    }
}
