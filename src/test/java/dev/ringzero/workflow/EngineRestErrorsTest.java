package dev.ringzero.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The engine REST API's answers as the filter leaves them: another person's resource (the
 * engine's 403, which names it) and a missing one (its NullValueException, a 500) read alike.
 */
class EngineRestErrorsTest {

    private final java.util.Set<String> completedTasks = new java.util.HashSet<>();
    private final EngineRestErrors underTest = new EngineRestErrors(completedTasks::contains);

    @Test
    void aRefusalNamingAnotherPersonsInstanceBecomesAPlainNotFound() throws Exception {
        MockHttpServletResponse response = answer(HttpServletResponse.SC_FORBIDDEN, "{\"type\":\"AuthorizationException\","
                + "\"message\":\"The user with id 'alice' does not have 'READ' permission on resource 'bobs-instance'\"}");

        assertThat(response.getStatus()).isEqualTo(404);
        assertThat(response.getContentAsString()).isEqualTo(EngineRestErrors.NOT_FOUND).doesNotContain("bobs-instance");
    }

    @Test
    void theEnginesNullValueExceptionForAnUnknownIdIsANotFoundToo() throws Exception {
        MockHttpServletResponse response = answer(500, "{\"type\":\"NullValueException\",\"message\":\"execution "
                + "no-such-id doesn't exist: execution is null\"}");

        assertThat(response.getStatus()).isEqualTo(404);
        assertThat(response.getContentAsString()).isEqualTo(EngineRestErrors.NOT_FOUND);
    }

    @Test
    void everythingElsePassesUnchanged() throws Exception {
        for (int status : new int[] {200, 401, 404, 500}) {
            String body = "{\"type\":\"ProcessEngineException\",\"message\":\"status " + status + "\"}";
            MockHttpServletResponse response = answer(status, body);

            assertThat(response.getStatus()).isEqualTo(status);
            assertThat(response.getContentAsString()).isEqualTo(body);
        }
    }

    @Test
    void aCompletionThatLostTheRaceForItsTaskIsAConflictOnlyWhenTheTaskWasCompleted() throws Exception {
        completedTasks.add("task-1");
        String body = "{\"type\":\"RestException\",\"message\":\"Cannot complete task task-1: Cannot find task with "
                + "id task-1: task is null\"}";

        MockHttpServletResponse lost = answer("POST", "/engine-rest/engine/default/task/task-1/complete", 500, body);
        MockHttpServletResponse form = answer("POST", "/engine-rest/task/task-1/submit-form", 500, body);
        MockHttpServletResponse late = answer("POST", "/engine-rest/task/task-1/complete", 500,
                "{\"type\":\"NullValueException\",\"message\":\"Cannot find task with id task-1: task is null\"}");
        MockHttpServletResponse stillThere = answer("POST", "/engine-rest/task/task-2/complete", 500, body);

        assertThat(lost.getStatus()).isEqualTo(409);
        assertThat(lost.getContentAsString()).isEqualTo(EngineRestErrors.COMPLETED);
        assertThat(form.getStatus()).isEqualTo(409);
        assertThat(late.getStatus()).isEqualTo(409);
        assertThat(stillThere.getStatus()).isEqualTo(500);
        assertThat(stillThere.getContentAsString()).isEqualTo(body);
    }

    private MockHttpServletResponse answer(int status, String body) throws Exception {
        return answer("GET", "/engine-rest/process-instance/x", status, body);
    }

    private MockHttpServletResponse answer(String method, String uri, int status, String body) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockHttpServletRequest call = new MockHttpServletRequest(method, uri);
        underTest.doFilter(call, response,
                (request, answer) -> {
                    HttpServletResponse http = (HttpServletResponse) answer;
                    http.setStatus(status);
                    http.setContentType("application/json");
                    http.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
                });
        return response;
    }
}
