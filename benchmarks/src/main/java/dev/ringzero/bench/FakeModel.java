package dev.ringzero.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An OpenAI-compatible chat-completions endpoint of fixed latency, for the benchmark's and the
 * fault suite's {@code llm} sessions: the platform talks to it over real HTTP as to any model
 * server. Every session goes the same way, two turns: the first asks for the screen tool
 * ({@code display__show_text}, "hello from the model"), the second, once a tool result is in the
 * conversation, gives the final answer. Each reply waits {@code latency} first, on a thread of its
 * own, as a slow model would keep a connection open while it thinks.
 */
public final class FakeModel implements AutoCloseable {

    public static final String MODEL = "fake-fixed-latency";
    static final String TEXT = "hello from the model";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(work -> {
        Thread thread = new Thread(work, "fake-model");
        thread.setDaemon(true);
        return thread;
    });
    private final Duration latency;
    private final AtomicLong turns = new AtomicLong();
    private final AtomicLong toolCalls = new AtomicLong();
    private volatile java.util.function.Consumer<String> finalAnswers = request -> { };

    private FakeModel(HttpServer server, Duration latency) {
        this.server = server;
        this.latency = latency;
    }

    /** Listens on 127.0.0.1:{@code port} (0: any free port). */
    public static FakeModel start(int port, Duration latency) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 256);
        FakeModel model = new FakeModel(server, latency);
        server.createContext("/v1/chat/completions", model::answer);
        server.setExecutor(model.threads);
        server.start();
        return model;
    }

    /** What {@code RINGZERO_LLM_BASE_URL} should say. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /**
     * Called with the request's text each time a session's final answer is sent (the session ends
     * then): the benchmark's sessions start their next run on it, without polling the platform.
     */
    public void onFinalAnswer(java.util.function.Consumer<String> listener) {
        this.finalAnswers = listener;
    }

    /** How long each reply waits. */
    public Duration latency() {
        return latency;
    }

    /** Model turns answered so far (each a chat-completions request). */
    public long turns() {
        return turns.get();
    }

    /** Of those, the turns that asked for a tool. */
    public long toolCalls() {
        return toolCalls.get();
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            try {
                Thread.sleep(latency.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            String tool = screenTool(request);
            boolean answered = false;
            for (JsonNode message : request.path("messages")) {
                answered |= "tool".equals(message.path("role").asText());
            }
            ObjectNode message = JSON.createObjectNode().put("role", "assistant");
            String finish;
            if (!answered && tool != null) {
                message.putNull("content");
                ObjectNode call = message.putArray("tool_calls").addObject()
                        .put("id", "call_" + System.nanoTime()).put("type", "function");
                call.putObject("function").put("name", tool)
                        .put("arguments", JSON.createObjectNode().put("text", TEXT).toString());
                finish = "tool_calls";
                toolCalls.incrementAndGet();
            } else {
                message.put("content", "Done: the screen says hello.");
                finish = "stop";
            }
            turns.incrementAndGet();
            ObjectNode completion = JSON.createObjectNode().put("id", "chatcmpl-" + System.nanoTime())
                    .put("object", "chat.completion").put("created", System.currentTimeMillis() / 1000)
                    .put("model", MODEL);
            ObjectNode choice = completion.putArray("choices").addObject().put("index", 0);
            choice.set("message", message);
            choice.put("finish_reason", finish);
            completion.putObject("usage").put("prompt_tokens", 200).put("completion_tokens", 20)
                    .put("total_tokens", 220);
            byte[] bytes = completion.toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
            if ("stop".equals(finish)) {
                finalAnswers.accept(request.toString());
            }
        }
    }

    /** The tool the platform offers for the screen ({@code display.show_text} on the wire), if any. */
    private static String screenTool(JsonNode request) {
        for (JsonNode tool : request.path("tools")) {
            String name = tool.at("/function/name").asText("");
            if (name.endsWith("show_text")) {
                return name;
            }
        }
        return null;
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
