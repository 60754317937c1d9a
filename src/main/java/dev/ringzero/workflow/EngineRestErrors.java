package dev.ringzero.workflow;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.history.HistoricTaskInstance;
import org.camunda.bpm.engine.impl.identity.Authentication;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * The engine REST API tells nobody what exists beyond what they may see: a refusal for another
 * person's instance, task or variable (403, whose message names the id and the missing permission)
 * and the engine's {@code NullValueException} for an id that names nothing (a 500) both answer
 * 404, alike, as RingZero's own API does. Runs behind the engine's login filter, so a missing login
 * is still 401.
 *
 * <p>A completion that lost a race (a gate's review decided on the desk, on this node or another,
 * while a Tasklist client completed it) fails inside the engine with whatever the loser met first
 * (the gate no longer pending, the task gone): a 500, or a 404 once the task is gone. When the task
 * was completed meanwhile and the caller may read its instance's history, the answer is 409, as the
 * desk answers a decision that came too late; a caller who may not read it learns nothing new.
 */
class EngineRestErrors extends OncePerRequestFilter {

    static final String NOT_FOUND = "{\"type\":\"InvalidRequestException\","
            + "\"message\":\"no such resource, or not yours\",\"code\":null}";
    static final String COMPLETED = "{\"type\":\"TaskAlreadyCompletedException\","
            + "\"message\":\"the task was completed meanwhile: someone decided first\",\"code\":null}";

    private static final Pattern COMPLETION = Pattern.compile(".*/task/([^/]+)/(complete|submit-form)");

    /** Whether the task was completed, as far as the caller may read its instance's history. */
    @FunctionalInterface
    interface CompletedTasks {
        boolean completed(String taskId);
    }

    private final CompletedTasks completed;

    EngineRestErrors(CompletedTasks completed) {
        this.completed = completed;
    }

    /**
     * The engine's history, read as the platform for the task's instance, then as the caller for
     * whether they may know it (the login filter has authenticated them on the engine).
     */
    static CompletedTasks inHistory(HistoryService history, IdentityService identity) {
        return taskId -> {
            Authentication caller = identity.getCurrentAuthentication();
            HistoricTaskInstance task;
            identity.clearAuthentication();
            try {
                task = history.createHistoricTaskInstanceQuery().taskId(taskId).finished().singleResult();
            } finally {
                if (caller != null) {
                    identity.setAuthentication(caller);
                }
            }
            return task != null && history.createHistoricProcessInstanceQuery()
                    .processInstanceId(task.getProcessInstanceId()).count() > 0;
        };
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ContentCachingResponseWrapper wrapper = new ContentCachingResponseWrapper(response);
        chain.doFilter(request, wrapper);
        if (lostARace(request, wrapper)) {
            replace(response, wrapper, HttpServletResponse.SC_CONFLICT, COMPLETED);
            return;
        }
        if (tellsTooMuch(wrapper)) {
            replace(response, wrapper, HttpServletResponse.SC_NOT_FOUND, NOT_FOUND);
            return;
        }
        wrapper.copyBodyToResponse();
    }

    private boolean lostARace(HttpServletRequest request, ContentCachingResponseWrapper answer) {
        // whatever the loser met (a 500, or the 403 or 404 of a task already gone); never a missing login
        int status = answer.getStatus();
        if (status < 400 || status == HttpServletResponse.SC_UNAUTHORIZED || !"POST".equals(request.getMethod())) {
            return false;
        }
        Matcher completion = COMPLETION.matcher(request.getRequestURI());
        return completion.matches() && completed.completed(completion.group(1));
    }

    private static void replace(HttpServletResponse response, ContentCachingResponseWrapper answer, int status,
            String json) throws IOException {
        answer.resetBuffer();
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
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
