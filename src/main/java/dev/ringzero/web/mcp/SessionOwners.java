package dev.ringzero.web.mcp;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.ringzero.accounts.Caller;
import dev.ringzero.web.ApiAuthenticationFilter;
import io.modelcontextprotocol.spec.HttpHeaders;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * An MCP session belongs to the owner whose token opened it: a request that names another owner's
 * session is answered as if the session did not exist (404, as the transport answers an unknown
 * one), so nobody reads another's stream or acts inside another's session. Runs after the
 * credential filter, which has put the {@link Caller} on the request.
 */
final class SessionOwners extends OncePerRequestFilter {

    /** Sessions remembered at most; the oldest is forgotten first (the SDK expires idle ones too). */
    private static final int MAX_SESSIONS = 10_000;

    private final Map<String, String> owners = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, false) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
                    return size() > MAX_SESSIONS;
                }
            });

    /** The account that opened {@code sessionId}, if this node knows the session. */
    Optional<String> ownerOf(String sessionId) {
        return Optional.ofNullable(sessionId).map(owners::get);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Caller caller = (Caller) request.getAttribute(ApiAuthenticationFilter.CALLER);
        if (caller == null) {
            response.sendError(HttpServletResponse.SC_UNAUTHORIZED);
            return;
        }
        String session = request.getHeader(HttpHeaders.MCP_SESSION_ID);
        if (session != null) {
            String owner = owners.putIfAbsent(session, caller.accountId());
            if (owner != null && !owner.equals(caller.accountId())) {
                response.setStatus(HttpServletResponse.SC_NOT_FOUND);
                response.setContentType("application/json");
                response.getWriter().write("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,"
                        + "\"message\":\"Session not found\"}}");
                return;
            }
        }
        chain.doFilter(request, response);
        String opened = response.getHeader(HttpHeaders.MCP_SESSION_ID);
        if (session == null && opened != null) {
            owners.put(opened, caller.accountId());
        }
        if (session != null && "DELETE".equals(request.getMethod()) && response.getStatus() < 300) {
            owners.remove(session);
        }
    }
}
