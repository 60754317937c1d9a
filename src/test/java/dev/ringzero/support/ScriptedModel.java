package dev.ringzero.support;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An OpenAI-compatible chat-completions server inside the test JVM, answering from scripts: the
 * platform under test talks to it over real HTTP, exactly as to OpenAI, Ollama or vLLM. A script
 * answers the requests whose body holds its marker (put the marker in the agent's instructions),
 * one reply per request in order; a request no script claims is answered 404.
 * Port: {@code RINGZERO_TEST_LLM_PORT} (default 18851).
 */
public final class ScriptedModel {

    public static final String MODEL = "scripted";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PORT = Integer.parseInt(System.getenv().getOrDefault("RINGZERO_TEST_LLM_PORT", "18851"));
    private static HttpServer server;
    private static final Map<String, Script> SCRIPTS = new ConcurrentHashMap<>();

    private ScriptedModel() {
    }

    public static synchronized void start() {
        if (server != null) {
            return;
        }
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", PORT), 64);
        } catch (IOException e) {
            throw new IllegalStateException("the scripted model cannot listen on " + PORT
                    + " - set RINGZERO_TEST_LLM_PORT", e);
        }
        server.createContext("/v1/chat/completions", ScriptedModel::answer);
        server.setExecutor(Executors.newCachedThreadPool(work -> {
            Thread thread = new Thread(work, "scripted-model");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    public static String baseUrl() {
        return "http://127.0.0.1:" + PORT;
    }

    /** A new script for requests carrying {@code marker}. */
    public static Script script(String marker) {
        Script script = new Script();
        SCRIPTS.put(marker, script);
        return script;
    }

    private static void answer(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Script script = SCRIPTS.entrySet().stream().filter(entry -> body.contains(entry.getKey()))
                .map(Map.Entry::getValue).findFirst().orElse(null);
        if (script == null) {
            send(exchange, 404, "{\"error\":{\"message\":\"no script for this request\"}}");
            return;
        }
        Request request = new Request(JSON.readTree(body));
        script.requests.add(request);
        Function<Request, Reply> next = script.replies.poll();
        Reply reply = next == null ? Reply.answer("(the script is over)") : next.apply(request);
        if (reply.delay != null) {
            try {
                Thread.sleep(reply.delay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (reply.hangUp) {
            exchange.close(); // the connection ends with no answer at all
            return;
        }
        send(exchange, reply.status, reply.body);
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The replies of one agent's model, and the requests it was sent. */
    public static final class Script {
        private final Queue<Function<Request, Reply>> replies = new ConcurrentLinkedQueue<>();
        private final List<Request> requests = new CopyOnWriteArrayList<>();

        public Script then(Reply reply) {
            replies.add(request -> reply);
            return this;
        }

        /** A reply made from the request (e.g. echoing what a tool returned). */
        public Script then(Function<Request, Reply> reply) {
            replies.add(reply);
            return this;
        }

        public List<Request> requests() {
            return List.copyOf(requests);
        }
    }

    /** One request as the platform sent it. */
    public record Request(JsonNode body) {

        public List<String> toolNames() {
            return body.path("tools").findValuesAsText("name");
        }

        public List<JsonNode> messages() {
            List<JsonNode> messages = new ArrayList<>();
            body.path("messages").forEach(messages::add);
            return messages;
        }

        /** The contents of the tool-result messages, in order. */
        public List<JsonNode> toolResults() {
            List<JsonNode> results = new ArrayList<>();
            for (JsonNode message : messages()) {
                if ("tool".equals(message.path("role").asText())) {
                    try {
                        results.add(JSON.readTree(message.path("content").asText()));
                    } catch (IOException e) {
                        results.add(message.path("content"));
                    }
                }
            }
            return results;
        }

        public String text() {
            return body.toString();
        }
    }

    /** One scripted reply. */
    public static final class Reply {
        private final int status;
        private final String body;
        private Duration delay;
        private boolean hangUp;

        private Reply(int status, String body) {
            this.status = status;
            this.body = body;
        }

        /** The model asks for tools: pairs of wire name and arguments' JSON. */
        public static Reply toolCalls(int promptTokens, int completionTokens, String... nameAndArguments) {
            ObjectNode message = JSON.createObjectNode().put("role", "assistant");
            message.putNull("content");
            ArrayNode calls = message.putArray("tool_calls");
            for (int i = 0; i + 1 < nameAndArguments.length; i += 2) {
                ObjectNode call = calls.addObject().put("id", "call_" + (i / 2) + "_" + System.nanoTime())
                        .put("type", "function");
                call.putObject("function").put("name", nameAndArguments[i]).put("arguments", nameAndArguments[i + 1]);
            }
            return completion(message, "tool_calls", promptTokens, completionTokens);
        }

        public static Reply toolCalls(String... nameAndArguments) {
            return toolCalls(20, 10, nameAndArguments);
        }

        /** The model's final answer. */
        public static Reply answer(String text) {
            return answer(text, 20, 5);
        }

        public static Reply answer(String text, int promptTokens, int completionTokens) {
            ObjectNode message = JSON.createObjectNode().put("role", "assistant").put("content", text);
            return completion(message, "stop", promptTokens, completionTokens);
        }

        /** An HTTP status with a body of one's choice (an error, or garbage). */
        public static Reply raw(int status, String body) {
            return new Reply(status, body);
        }

        /** No answer: the connection is closed before a status line. */
        public static Reply hangUp() {
            Reply reply = new Reply(0, "");
            reply.hangUp = true;
            return reply;
        }

        public Reply after(Duration delay) {
            this.delay = delay;
            return this;
        }

        private static Reply completion(ObjectNode message, String finish, int promptTokens, int completionTokens) {
            ObjectNode completion = JSON.createObjectNode().put("id", "chatcmpl-" + System.nanoTime())
                    .put("object", "chat.completion").put("created", System.currentTimeMillis() / 1000)
                    .put("model", MODEL);
            ObjectNode choice = completion.putArray("choices").addObject().put("index", 0);
            choice.set("message", message);
            choice.put("finish_reason", finish);
            completion.putObject("usage").put("prompt_tokens", promptTokens).put("completion_tokens", completionTokens)
                    .put("total_tokens", promptTokens + completionTokens);
            return new Reply(200, completion.toString());
        }
    }
}
