package dev.ringzero.workflow;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * The engine REST API tells nobody what exists beyond what they may see: a refusal for another
 * person's instance, task or variable (403, whose message names the id and the missing permission)
 * and the engine's {@code NullValueException} for an id that names nothing (a 500) both answer
 * 404, alike, as RingZero's own API does. Runs behind the engine's login filter, so a missing login
 * is still 401.
 */
class EngineRestErrors extends OncePerRequestFilter {

    static final String NOT_FOUND = "{\"type\":\"InvalidRequestException\","
            + "\"message\":\"no such resource, or not yours\",\"code\":null}";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ContentCachingResponseWrapper wrapper = new ContentCachingResponseWrapper(response);
        chain.doFilter(request, wrapper);
        if (tellsTooMuch(wrapper)) {
            wrapper.resetBuffer();
            response.setStatus(HttpServletResponse.SC_NOT_FOUND);
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            byte[] body = NOT_FOUND.getBytes(StandardCharsets.UTF_8);
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
            return;
        }
        wrapper.copyBodyToResponse();
    }

    private static boolean tellsTooMuch(ContentCachingResponseWrapper answer) {
        int status = answer.getStatus();
        if (status == HttpServletResponse.SC_FORBIDDEN) {
            return true;
        }
        return status == HttpServletResponse.SC_INTERNAL_SERVER_ERROR
                && new String(answer.getContentAsByteArray(), StandardCharsets.UTF_8).contains("NullValueException");
    }
}
