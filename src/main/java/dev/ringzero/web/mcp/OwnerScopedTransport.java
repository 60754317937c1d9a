package dev.ringzero.web.mcp;

import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import reactor.core.publisher.Mono;

/**
 * The transport as the MCP server sees it, with one change: a resource-updated notification that
 * names an owner (in its {@code _meta}, under {@link #OWNER}) reaches only that owner's sessions,
 * and leaves without the name. The SDK keeps subscriptions per URI across all sessions; the inbox
 * has one URI for every owner, so without this every subscriber would hear of everyone's events.
 */
final class OwnerScopedTransport implements McpStreamableServerTransportProvider {

    static final String OWNER = "dev.ringzero/owner";

    private final McpStreamableServerTransportProvider delegate;
    private final SessionOwners owners;

    OwnerScopedTransport(McpStreamableServerTransportProvider delegate, SessionOwners owners) {
        this.delegate = delegate;
        this.owners = owners;
    }

    /** A notification that {@code uri} changed for {@code ownerId}, to be sent to that owner's sessions only. */
    static McpSchema.ResourcesUpdatedNotification updated(String uri, String ownerId) {
        return new McpSchema.ResourcesUpdatedNotification(uri, Map.of(OWNER, ownerId));
    }

    @Override
    public void setSessionFactory(McpStreamableServerSession.Factory sessionFactory) {
        delegate.setSessionFactory(sessionFactory);
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        if (params instanceof McpSchema.ResourcesUpdatedNotification updated && ownerOf(updated) != null) {
            return Mono.error(new IllegalStateException("an owner's notification is never broadcast"));
        }
        return delegate.notifyClients(method, params);
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        if (params instanceof McpSchema.ResourcesUpdatedNotification updated) {
            String owner = ownerOf(updated);
            if (owner != null) {
                if (!owners.ownerOf(sessionId).map(owner::equals).orElse(false)) {
                    return Mono.empty();
                }
                return delegate.notifyClient(sessionId, method, new McpSchema.ResourcesUpdatedNotification(
                        updated.uri()));
            }
        }
        return delegate.notifyClient(sessionId, method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return delegate.closeGracefully();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public List<String> protocolVersions() {
        return delegate.protocolVersions();
    }

    private static String ownerOf(McpSchema.ResourcesUpdatedNotification updated) {
        return updated.meta() == null ? null : (String) updated.meta().get(OWNER);
    }
}
