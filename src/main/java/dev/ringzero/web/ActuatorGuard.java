package dev.ringzero.web;

import java.io.IOException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.Refusal;
import dev.ringzero.accounts.LoginDirectory;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The actuator answers strangers only the liveness probe ({@code /actuator/health}: UP or DOWN).
 * Everything else it knows (the health details that name the database and the broker, metrics,
 * the Prometheus scrape) needs an administrator's HTTP Basic login, which this filter hands on as
 * the request's principal in role {@code ADMIN} (what {@code show-details: when-authorized} reads).
 */
class ActuatorGuard extends OncePerRequestFilter {

    static final String OPEN_PROBE = "/actuator/health";
    static final String ROLE = "ADMIN";

    private final LoginDirectory logins;
    private final ObjectMapper json;

    ActuatorGuard(LoginDirectory logins, ObjectMapper json) {
        this.logins = logins;
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        java.util.Optional<String> administrator = AdministratorLogin.of(request.getHeader("Authorization"), logins);
        if (administrator.isPresent()) {
            chain.doFilter(asAdministrator(request, administrator.get()), response);
            return;
        }
        if (path.equals(OPEN_PROBE)) {
            chain.doFilter(request, response);
            return;
        }
        response.setHeader("WWW-Authenticate", "Basic realm=\"ringzero\"");
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        json.writeValue(response.getOutputStream(), Problems.of(new Refusal(Refusal.Kind.UNAUTHENTICATED,
                "unauthorized", "the platform's details and metrics need an administrator's login")));
    }

    private static HttpServletRequest asAdministrator(HttpServletRequest request, String id) {
        return new jakarta.servlet.http.HttpServletRequestWrapper(request) {
            @Override
            public java.security.Principal getUserPrincipal() {
                return () -> id;
            }

            @Override
            public boolean isUserInRole(String role) {
                return ROLE.equals(role);
            }
        };
    }
}
