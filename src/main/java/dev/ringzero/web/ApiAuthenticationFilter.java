package dev.ringzero.web;

import java.io.IOException;
import java.util.Optional;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.Refusal;
import dev.ringzero.accounts.AccountService;
import dev.ringzero.accounts.Caller;
import dev.ringzero.accounts.Caller.Role;
import dev.ringzero.accounts.LoginDirectory;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The one door to {@code /api/**} and the MCP server at {@code /mcp}: admin routes take HTTP Basic
 * of a Camunda administrator, every other route a Bearer token. The resolved {@link Caller} rides on
 * the request; a gateway service token may call event admission and nothing else; signing in (an id
 * and a password in the body, for a token) needs no credential, and the analysts' read-only routes
 * also take Cockpit's own login (the webapps' session). Bodies over the API
 * limit are refused before anything reads them.
 */
public class ApiAuthenticationFilter extends OncePerRequestFilter {

    public static final String CALLER = ApiAuthenticationFilter.class.getName() + ".caller";
    static final String EVENTS_ROUTE = "/api/v1/gadgets/events";
    /**
     * Read-only routes for analysts, which Cockpit's run-history plugin calls with the webapp's own
     * login (its HTTP session) instead of a token. Only GET, so a page elsewhere that makes the
     * browser send the session's cookie can change nothing (and reads nothing: no CORS).
     */
    static final String ANALYST_ROUTES = "/api/v1/analyst/";
    /** Takes an id and password in its body instead of a credential (accounts' sign-in). */
    static final String SIGN_IN_ROUTE = "/api/v1/sign-in";

    private final AccountService accounts;
    private final LoginDirectory logins;
    private final ObjectMapper json;
    private final long maxBodyBytes;

    ApiAuthenticationFilter(AccountService accounts, LoginDirectory logins, ObjectMapper json,
            long maxBodyBytes) {
        this.accounts = accounts;
        this.logins = logins;
        this.json = json;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        // answers are the owner's data: never sniffed into another type, never kept by a cache
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Cache-Control", "no-store");
        if (request.getContentLengthLong() > maxBodyBytes) {
            reject(response, new Refusal(Refusal.Kind.TOO_LARGE, "payload-too-large",
                    "request body exceeds " + maxBodyBytes + " bytes"));
            return;
        }
        if (!concreteMediaType(request.getContentType())) {
            reject(response, new Refusal(Refusal.Kind.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type",
                    "Content-Type '" + request.getContentType() + "' is no concrete media type; send application/json"));
            return;
        }
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (path.equals(SIGN_IN_ROUTE) && "POST".equals(request.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        String header = Optional.ofNullable(request.getHeader("Authorization")).orElse("");
        Optional<Caller> caller = path.startsWith("/api/v1/admin/") ? admin(header) : bearer(header);
        if (caller.isEmpty() && header.isEmpty() && path.startsWith(ANALYST_ROUTES) && "GET".equals(request.getMethod())) {
            caller = cockpitAnalyst(request);
        }
        if (caller.isEmpty()) {
            response.setHeader("WWW-Authenticate", path.startsWith("/api/v1/admin/")
                    ? "Basic realm=\"ringzero\"" : "Bearer realm=\"ringzero\"");
            reject(response, new Refusal(Refusal.Kind.UNAUTHENTICATED, "unauthorized",
                    "a valid credential is required"));
            return;
        }
        boolean eventsRoute = path.equals(EVENTS_ROUTE) && "POST".equals(request.getMethod());
        if (caller.get().isGateway() != eventsRoute) {
            reject(response, Refusal.forbidden("forbidden",
                    caller.get().isGateway() ? "a gateway credential may only admit events"
                            : "only a gateway service credential may admit events here"));
            return;
        }
        request.setAttribute(CALLER, caller.get());
        chain.doFilter(request, response);
    }

    /** Absent, or a parseable type without wildcards: what the converters can be chosen by. */
    static boolean concreteMediaType(String contentType) {
        if (contentType == null) {
            return true;
        }
        try {
            MediaType type = MediaType.parseMediaType(contentType);
            return !type.isWildcardType() && !type.isWildcardSubtype();
        } catch (org.springframework.http.InvalidMediaTypeException e) {
            return false;
        }
    }

    private Optional<Caller> bearer(String header) {
        if (!header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        return accounts.authenticate(header.substring(7).trim());
    }

    /** An analyst (or the administrator) logged in to the webapps in this request's session. */
    private Optional<Caller> cockpitAnalyst(HttpServletRequest request) {
        return logins.webappUser(request.getSession(false))
                .flatMap(user -> accounts.roleOf(user).filter(role -> role == Role.ANALYST || role == Role.ADMIN)
                        .map(role -> new Caller(user, role)));
    }

    private Optional<Caller> admin(String header) {
        return AdministratorLogin.of(header, logins).map(user -> new Caller(user, Role.ADMIN));
    }

    private void reject(HttpServletResponse response, Refusal refusal) throws IOException {
        response.setStatus(Problems.status(refusal).value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        json.writeValue(response.getOutputStream(), Problems.of(refusal));
    }
}
