package dev.ringzero.web;

import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.accounts.AccountService;
import dev.ringzero.accounts.Caller;
import dev.ringzero.accounts.LoginDirectory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Wires the API credential filter and {@link Caller} arguments of the controllers. */
@Configuration
class ApiSecurityConfig implements WebMvcConfigurer {

    @Bean
    FilterRegistrationBean<ApiAuthenticationFilter> apiAuthentication(AccountService accounts,
            LoginDirectory logins, ObjectMapper json,
            @Value("${ringzero.api.max-body-bytes:262144}") long maxBodyBytes) {
        var registration = new FilterRegistrationBean<>(
                new ApiAuthenticationFilter(accounts, logins, json, maxBodyBytes));
        // the MCP server at /mcp takes the same tokens and acts as the same owner (web.mcp)
        registration.setUrlPatterns(List.of("/api/*", "/mcp", "/mcp/*"));
        registration.setName("ringzeroApiAuthentication");
        registration.setOrder(10);
        return registration;
    }

    /**
     * Before every door that takes a password or a token: the API, the MCP server, the actuator, the
     * engine REST API and the webapps' login.
     */
    @Bean
    FilterRegistrationBean<LoginThrottle> loginThrottle(ObjectMapper json, java.time.Clock clock,
            @Value("${ringzero.logins.max-failures:10}") int maxFailures,
            @Value("${ringzero.logins.window:PT1M}") java.time.Duration window) {
        var registration = new FilterRegistrationBean<>(new LoginThrottle(maxFailures, window, clock, json));
        registration.setUrlPatterns(List.of("/api/*", "/mcp", "/mcp/*", "/actuator/*", "/engine-rest/*",
                "/camunda/api/admin/auth/*"));
        registration.setName("ringzeroLoginThrottle");
        registration.setOrder(1);
        return registration;
    }

    /** Strangers get the liveness probe; details, metrics and the scrape need an administrator. */
    @Bean
    FilterRegistrationBean<ActuatorGuard> actuatorGuard(LoginDirectory logins, ObjectMapper json) {
        var registration = new FilterRegistrationBean<>(new ActuatorGuard(logins, json));
        registration.setUrlPatterns(List.of("/actuator/*"));
        registration.setName("ringzeroActuatorGuard");
        registration.setOrder(9);
        return registration;
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new HandlerMethodArgumentResolver() {
            @Override
            public boolean supportsParameter(MethodParameter parameter) {
                return parameter.getParameterType() == Caller.class;
            }

            @Override
            public Object resolveArgument(MethodParameter parameter, ModelAndViewContainer container,
                    NativeWebRequest request, WebDataBinderFactory binders) {
                Object caller = request.getAttribute(ApiAuthenticationFilter.CALLER, RequestAttributes.SCOPE_REQUEST);
                if (caller == null) {
                    throw new IllegalStateException("no caller: is the route outside /api/?");
                }
                return caller;
            }
        });
    }
}
