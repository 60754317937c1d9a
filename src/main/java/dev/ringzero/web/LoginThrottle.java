package dev.ringzero.web;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.Refusal;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Failed logins are throttled per client address, and nobody is ever locked out: an address that
 * failed {@code max-failures} times in the last {@code window} is answered 429 with
 * {@code Retry-After} (when its oldest failure leaves the window) until then, right password or
 * not, and told why. Every other address, the administrator's included, logs in as usual. The
 * engine's own login lock, which anonymous guesses could trip for good, is off (application.yaml).
 *
 * <p>A failed login is a request that carried credentials (an {@code Authorization} header, or the
 * webapps' login form, or the automations page's sign-in) and was answered 401. Kept in this
 * node's memory: a restart forgets it.
 */
class LoginThrottle extends OncePerRequestFilter {

    private final int maxFailures;
    private final Duration window;
    private final Clock clock;
    private final ObjectMapper json;
    private final Map<String, Deque<Instant>> failures = new ConcurrentHashMap<>();

    LoginThrottle(int maxFailures, Duration window, Clock clock, ObjectMapper json) {
        this.maxFailures = maxFailures;
        this.window = window;
        this.clock = clock;
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String address = request.getRemoteAddr();
        Duration wait = retryAfter(address);
        if (!wait.isZero()) {
            refuse(response, wait);
            return;
        }
        chain.doFilter(request, response);
        if (response.getStatus() == HttpServletResponse.SC_UNAUTHORIZED && carriesCredentials(request)) {
            failed(address);
        }
    }

    /** How long this address must wait before its next login; zero if it may try now. */
    Duration retryAfter(String address) {
        Deque<Instant> recent = failures.get(address);
        if (recent == null) {
            return Duration.ZERO;
        }
        synchronized (recent) {
            Instant now = clock.instant();
            while (!recent.isEmpty() && !recent.peekFirst().isAfter(now.minus(window))) {
                recent.pollFirst();
            }
            if (recent.size() < maxFailures) {
                return Duration.ZERO;
            }
            return Duration.between(now, recent.peekFirst().plus(window));
        }
    }

    void failed(String address) {
        Deque<Instant> recent = failures.computeIfAbsent(address, key -> new ArrayDeque<>());
        synchronized (recent) {
            recent.addLast(clock.instant());
            while (recent.size() > maxFailures) {
                recent.pollFirst();
            }
        }
    }

    private static boolean carriesCredentials(HttpServletRequest request) {
        return request.getHeader("Authorization") != null || request.getRequestURI().contains("/auth/user/")
                || request.getRequestURI().endsWith(ApiAuthenticationFilter.SIGN_IN_ROUTE);
    }

    private void refuse(HttpServletResponse response, Duration wait) throws IOException {
        long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
        response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
        response.setHeader("Retry-After", String.valueOf(seconds));
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        var detail = Problems.detail(HttpStatus.TOO_MANY_REQUESTS, "too-many-failed-logins",
                "too many failed logins from your address; try again in " + seconds
                        + " s (no account is locked: the right password works again then)");
        json.writeValue(response.getOutputStream(), detail);
    }
}
