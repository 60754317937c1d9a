package dev.ringzero.web;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The automations page: static files under {@code /app/} (classpath {@code static/app/}), a small
 * front end over {@code /api/v1} that signs in with the account's id and password. Serving them
 * needs no credential (they hold no data; every call they make carries the signed-in token), so
 * the API filter does not cover {@code /app/}. What this adds: {@code /app} and {@code /app/} lead
 * to the page, and the page's answers carry a strict content security policy (its own scripts and
 * styles only, calls to its own origin only, no framing).
 */
@Configuration
class AutomationsPage implements WebMvcConfigurer {

    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

    @Override
    public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/app", "/app/");
        registry.addViewController("/app/").setViewName("forward:/app/index.html");
    }

    @Bean
    FilterRegistrationBean<PageHeaders> automationsPageHeaders() {
        var registration = new FilterRegistrationBean<>(new PageHeaders());
        registration.setUrlPatterns(List.of("/app", "/app/*"));
        registration.setName("ringzeroAutomationsPageHeaders");
        registration.setOrder(11);
        return registration;
    }

    /** Security headers of every answer under {@code /app/}. */
    static final class PageHeaders extends OncePerRequestFilter {

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
            response.setHeader("X-Content-Type-Options", "nosniff");
            response.setHeader("X-Frame-Options", "DENY");
            response.setHeader("Referrer-Policy", "no-referrer");
            // the page changes with the platform: the browser asks again instead of keeping an old copy
            response.setHeader("Cache-Control", "no-cache");
            chain.doFilter(request, response);
        }
    }
}
