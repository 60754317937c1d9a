package dev.ringzero.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** Failed logins slow one address down, for a bounded time, and lock nobody out. */
class LoginThrottleTest {

    private final MovableClock clock = new MovableClock();
    private final LoginThrottle underTest = new LoginThrottle(3, Duration.ofMinutes(1), clock, new ObjectMapper());
    private final AtomicInteger reachedTheDoor = new AtomicInteger();

    @Test
    void anAddressThatFailedTooOftenIsAnsweredTooManyRequestsWithRetryAfter() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(login("10.0.0.9", "Basic d3Jvbmc=", 401).getStatus()).isEqualTo(401);
        }

        MockHttpServletResponse throttled = login("10.0.0.9", "Basic cmlnaHQ=", 200);

        assertThat(throttled.getStatus()).isEqualTo(429);
        assertThat(throttled.getHeader("Retry-After")).isEqualTo("60");
        assertThat(throttled.getContentAsString()).contains("too-many-failed-logins").contains("try again in 60 s");
        assertThat(reachedTheDoor).as("not even the right password is checked meanwhile").hasValue(3);
    }

    @Test
    void otherAddressesLogInAsUsual() throws Exception {
        for (int i = 0; i < 3; i++) {
            login("10.0.0.9", "Basic d3Jvbmc=", 401);
        }

        assertThat(login("10.0.0.10", "Basic cmlnaHQ=", 200).getStatus()).isEqualTo(200);
    }

    @Test
    void theThrottleLiftsWhenTheOldestFailureLeavesTheWindow() throws Exception {
        login("10.0.0.9", "Basic d3Jvbmc=", 401);
        clock.advance(Duration.ofSeconds(30));
        login("10.0.0.9", "Basic d3Jvbmc=", 401);
        login("10.0.0.9", "Basic d3Jvbmc=", 401);
        assertThat(login("10.0.0.9", "Basic cmlnaHQ=", 200).getHeader("Retry-After")).isEqualTo("30");

        clock.advance(Duration.ofSeconds(30));

        assertThat(login("10.0.0.9", "Basic cmlnaHQ=", 200).getStatus()).isEqualTo(200);
    }

    @Test
    void aRequestWithoutCredentialsIsNoFailedLogin() throws Exception {
        for (int i = 0; i < 5; i++) {
            login("10.0.0.9", null, 401);
        }

        assertThat(login("10.0.0.9", "Basic cmlnaHQ=", 200).getStatus()).isEqualTo(200);
    }

    @Test
    void wrongPasswordsAtTheAutomationsPagesSignInCountToo() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(signIn("10.0.0.9", 401).getStatus()).isEqualTo(401);
        }

        assertThat(signIn("10.0.0.9", 200).getStatus()).isEqualTo(429);
        assertThat(reachedTheDoor).hasValue(3);
    }

    private MockHttpServletResponse signIn(String address, int answer) throws Exception {
        // the id and password come in the body: no Authorization header
        MockHttpServletRequest request = new MockHttpServletRequest("POST", ApiAuthenticationFilter.SIGN_IN_ROUTE);
        request.setRemoteAddr(address);
        MockHttpServletResponse response = new MockHttpServletResponse();
        underTest.doFilter(request, response, (req, res) -> {
            reachedTheDoor.incrementAndGet();
            ((HttpServletResponse) res).setStatus(answer);
        });
        return response;
    }

    private MockHttpServletResponse login(String address, String authorization, int answer) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/admin/accounts");
        request.setRemoteAddr(address);
        if (authorization != null) {
            request.addHeader("Authorization", authorization);
        }
        MockHttpServletResponse response = new MockHttpServletResponse();
        underTest.doFilter(request, response, (req, res) -> {
            reachedTheDoor.incrementAndGet();
            ((HttpServletResponse) res).setStatus(answer);
        });
        return response;
    }

    private static final class MovableClock extends Clock {
        private Instant now = Instant.parse("2026-12-02T10:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneId getZone() {
            return ZoneId.of("UTC");
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
