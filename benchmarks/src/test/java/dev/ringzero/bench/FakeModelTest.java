package dev.ringzero.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The fake model steers every session the same way: the screen tool first, then a final answer. */
class FakeModelTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOOLS = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"speaker__say\"}},"
            + "{\"type\":\"function\",\"function\":{\"name\":\"display__show_text\"}}]";

    @Test
    void theFirstTurnAsksForTheScreenToolAndTheNextAnswersAfterItsLatency() throws Exception {
        // the listener hears the final answer once it has been written to the client, so the test
        // may read the answer first: it waits for the listener (bounded) rather than race it
        java.util.concurrent.BlockingQueue<String> finals = new java.util.concurrent.LinkedBlockingQueue<>();
        try (FakeModel model = FakeModel.start(0, Duration.ofMillis(200))) {
            model.onFinalAnswer(finals::add);

            long started = System.nanoTime();
            JsonNode first = ask(model, "{\"messages\":[{\"role\":\"system\",\"content\":\"[bench session 3] hi\"}],"
                    + TOOLS + "}");
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            JsonNode second = ask(model, "{\"messages\":[{\"role\":\"system\",\"content\":\"[bench session 3] hi\"},"
                    + "{\"role\":\"tool\",\"content\":\"{}\"}]," + TOOLS + "}");

            JsonNode call = first.at("/choices/0/message/tool_calls/0/function");
            assertThat(call.path("name").asText()).isEqualTo("display__show_text");
            assertThat(JSON.readTree(call.path("arguments").asText()).path("text").asText()).isEqualTo(FakeModel.TEXT);
            assertThat(first.at("/choices/0/finish_reason").asText()).isEqualTo("tool_calls");
            assertThat(tookMs).isGreaterThanOrEqualTo(200);
            assertThat(second.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
            assertThat(second.at("/usage/total_tokens").asInt()).isPositive();
            assertThat(model.turns()).isEqualTo(2);
            assertThat(model.toolCalls()).isEqualTo(1);
            assertThat(finals.poll(5, java.util.concurrent.TimeUnit.SECONDS)).isNotNull().contains("[bench session 3]");
            assertThat(finals).isEmpty();
        }
    }

    @Test
    void withoutAScreenToolTheFirstTurnIsTheFinalAnswer() throws Exception {
        try (FakeModel model = FakeModel.start(0, Duration.ZERO)) {
            JsonNode reply = ask(model, "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");

            assertThat(reply.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
            assertThat(model.toolCalls()).isZero();
        }
    }

    private static JsonNode ask(FakeModel model, String body) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(model.baseUrl() + "/v1/chat/completions")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
