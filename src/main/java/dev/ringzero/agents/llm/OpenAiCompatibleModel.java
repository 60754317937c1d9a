package dev.ringzero.agents.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.springframework.ai.openai.api.OpenAiApi;
import org.springframework.ai.openai.api.OpenAiApi.ChatCompletion;
import org.springframework.ai.openai.api.OpenAiApi.ChatCompletionMessage;
import org.springframework.ai.openai.api.OpenAiApi.ChatCompletionMessage.ChatCompletionFunction;
import org.springframework.ai.openai.api.OpenAiApi.ChatCompletionMessage.Role;
import org.springframework.ai.openai.api.OpenAiApi.ChatCompletionRequest;
import org.springframework.ai.openai.api.OpenAiApi.FunctionTool;
import org.springframework.ai.retry.NonTransientAiException;
import org.springframework.ai.retry.TransientAiException;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * The {@link Model} on any OpenAI-compatible chat-completions endpoint, through Spring AI's OpenAI
 * client ({@link OpenAiApi}, the chat-completions API itself). Not through its {@code ChatModel}:
 * that layer's tool execution and retries are what a session must not have (a tool call comes back
 * to the session, which asks ring 0 before anything runs; a failed turn is the session's to judge),
 * and its merging of options by reflection cost a session more CPU than the HTTP exchange (issue
 * 18's profile: 58 % of a turn's model call).
 */
final class OpenAiCompatibleModel implements Model, AutoCloseable {

    /** A kept-alive connection unused this long is closed. */
    private static final TimeValue IDLE = TimeValue.ofSeconds(30);

    /** Where a server reports no usage, about four characters make a token. */
    private static final int CHARS_PER_TOKEN = 4;

    /** The JSON a rehearsal writes and reads, as the client's message converter would (no network). */
    private static final com.fasterxml.jackson.databind.ObjectMapper WIRE = new com.fasterxml.jackson.databind.ObjectMapper()
            .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /** Cuts an exchange still going at the reply timeout: one thread for the node, asleep between. */
    private final ScheduledThreadPoolExecutor deadlines = deadlines();
    /** The asking thread's exchange, from the start of ask to its end. */
    private final ThreadLocal<Asking> asking = new ThreadLocal<>();
    private final CloseableHttpClient http;
    private final OpenAiApi api;
    private final String model;
    private final long replySeconds;

    OpenAiCompatibleModel(LlmSettings settings) {
        this.http = client(settings, deadlines, asking);
        // its default error handler names a refusal: TransientAiException (5xx), NonTransientAiException (4xx)
        this.api = OpenAiApi.builder().baseUrl(settings.baseUrl())
                .apiKey(settings.apiKey().isEmpty() ? "none" : settings.apiKey())
                .restClientBuilder(RestClient.builder().requestFactory(new HttpComponentsClientHttpRequestFactory(http)))
                .build();
        this.model = settings.model();
        this.replySeconds = settings.replyTimeout().toSeconds();
    }

    /**
     * A blocking exchange on the asking thread (a turn's worker, or a draft's request), over a pool
     * of kept-alive connections: no other thread takes part. The JDK's client, before, wrote each
     * request on a pool thread of its own, read the reply on its selector thread and, on two cores,
     * started a new thread per request to complete it (its default asynchronous executor): ~1 ms
     * more CPU per turn ({@code benchmarks/model-client.sh}, docs/benchmarks.md's twenty-third
     * series). As with that client, the pool does not limit how many ask at once (the workers and
     * the drafts do); a connection idle for a second is checked before it is used again, so a
     * server that closed it costs no turn, and one idle for {@link #IDLE} is closed. Nothing is
     * tried again (a turn is the session's to judge), no redirect is followed, no cookie is kept
     * (one client serves every owner), and TLS is the JVM's ({@code javax.net.ssl.*}). The reply
     * timeout is the socket's, for a silent server, and the whole exchange's: a server still
     * sending when it passes has its exchange cut (its connection closed), as the JDK client's
     * deadline did.
     */
    private static CloseableHttpClient client(LlmSettings settings, ScheduledThreadPoolExecutor deadlines,
            ThreadLocal<Asking> asking) {
        long replyMillis = settings.replyTimeout().toMillis();
        ConnectionConfig exchange = ConnectionConfig.custom()
                .setConnectTimeout(Timeout.of(settings.connectTimeout()))
                .setSocketTimeout(Timeout.of(settings.replyTimeout()))
                .setValidateAfterInactivity(TimeValue.ofSeconds(1)).build();
        return HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create().useSystemProperties()
                        .setMaxConnPerRoute(Integer.MAX_VALUE).setMaxConnTotal(Integer.MAX_VALUE)
                        .setDefaultConnectionConfig(exchange).build())
                .evictIdleConnections(IDLE)
                // the socket timeout bounds silence only: a server that keeps sending is cut here
                .addExecInterceptorFirst("reply-deadline", (request, scope, chain) -> {
                    Asking asker = asking.get();
                    if (asker != null && scope.originalRequest instanceof Cancellable asked) {
                        asker.arm(deadlines, asked, TimeUnit.MILLISECONDS.toNanos(replyMillis));
                    }
                    return chain.proceed(request, scope);
                })
                // on the asking thread, once the status and headers are read and before the body is
                .addResponseInterceptorFirst((response, entity, context) -> {
                    Asking asker = asking.get();
                    if (asker != null) {
                        asker.replyHeadArrived(deadlines);
                    }
                })
                .disableAutomaticRetries().disableRedirectHandling().disableCookieManagement().build();
    }

    /**
     * One exchange on its asking thread: the cut armed at its deadline, and what the thread does
     * when the reply's head arrives. The time that takes (an llm worker waiting for its slot, see
     * {@code DevicesFirst#slot}) is the node's, not the server's: the deadline is moved by it.
     */
    private static final class Asking {

        private final Runnable onReplyHead;
        private Cancellable exchange;
        private ScheduledFuture<Boolean> cut;

        Asking(Runnable onReplyHead) {
            this.onReplyHead = onReplyHead;
        }

        void arm(ScheduledThreadPoolExecutor deadlines, Cancellable asked, long inNanos) {
            exchange = asked;
            cut = deadlines.schedule(asked::cancel, inNanos, TimeUnit.NANOSECONDS);
        }

        void replyHeadArrived(ScheduledThreadPoolExecutor deadlines) {
            if (cut == null || !cut.cancel(false)) {
                // not armed, or already due: the exchange is being cut, and its read fails so
                onReplyHead.run();
                return;
            }
            long left = cut.getDelay(TimeUnit.NANOSECONDS);
            onReplyHead.run();
            cut = deadlines.schedule(exchange::cancel, Math.max(0, left), TimeUnit.NANOSECONDS);
        }

        void disarm() {
            if (cut != null) {
                cut.cancel(false);
            }
        }
    }

    /** The node stops: its kept-alive connections are closed. */
    @Override
    public void close() throws java.io.IOException {
        deadlines.shutdownNow();
        http.close();
    }

    private static ScheduledThreadPoolExecutor deadlines() {
        ScheduledThreadPoolExecutor deadlines = new ScheduledThreadPoolExecutor(1, work -> {
            Thread thread = new Thread(work, "model-deadline");
            thread.setDaemon(true);
            return thread;
        });
        deadlines.setRemoveOnCancelPolicy(true); // an exchange that ended leaves nothing queued
        return deadlines;
    }

    @Override
    public ModelReply ask(ModelCall call, Runnable onReplyHead) {
        ChatCompletion completion;
        Asking exchange = new Asking(onReplyHead);
        asking.set(exchange);
        try {
            ResponseEntity<ChatCompletion> response = api.chatCompletionEntity(request(call));
            completion = response == null ? null : response.getBody();
        } catch (RuntimeException e) {
            return failed(e, exchange);
        } finally {
            exchange.disarm();
            asking.remove();
        }
        return reply(call, completion);
    }

    /** Why an exchange failed, as a turn's reason; in the asking thread, before its cut is disarmed. */
    private ModelReply.Failed failed(RuntimeException e, Asking exchange) {
        ScheduledFuture<Boolean> armed = exchange.cut;
        // Due, not done: the cut may be closing the socket at the moment the read fails with it.
        // The deadline is armed before the connection is made, so a read's socket timeout (the
        // reply timeout again, counted from later) never falls due before it; a failure before it
        // (refused, reset, the connect timeout) means the server could not be reached.
        boolean cutAtTheDeadline = armed != null && armed.getDelay(TimeUnit.NANOSECONDS) <= 0;
        if (cutAtTheDeadline) {
            return new ModelReply.Failed("model_timeout", "the model did not answer within " + replySeconds + " s");
        }
        if (e instanceof ResourceAccessException) {
            return new ModelReply.Failed("model_unreachable", "the model server cannot be reached: " + rootMessage(e));
        }
        if (e instanceof NonTransientAiException || e instanceof TransientAiException) {
            return new ModelReply.Failed("model_error", "the model server refused the turn: " + shorten(e.getMessage()));
        }
        if (e instanceof RestClientException || e instanceof IllegalStateException
                || e instanceof IllegalArgumentException || e instanceof NullPointerException) {
            // an answer that is not a chat completion (HTML, truncated JSON, ...)
            return new ModelReply.Failed("model_garbage", "the model server's answer is not a chat completion: "
                    + shorten(rootMessage(e)));
        }
        throw e;
    }

    @Override
    public ModelReply rehearse(ModelCall call, ToolCall asked) {
        return replayed(call, completion(asked));
    }

    /**
     * The request for {@code call} written as JSON and {@code completion} read as the server's
     * answer, through the same mapping as a turn's, with nothing sent anywhere.
     */
    ModelReply replayed(ModelCall call, String completion) {
        try {
            WIRE.writeValueAsBytes(request(call));
            return reply(call, WIRE.readValue(completion, ChatCompletion.class));
        } catch (java.io.IOException e) {
            return new ModelReply.Failed("model_garbage", "the rehearsed answer is not a chat completion: "
                    + shorten(rootMessage(e)));
        }
    }

    /** A chat completion as an OpenAI-compatible server sends it: a call of {@code asked}, or a final answer. */
    private static String completion(ToolCall asked) {
        com.fasterxml.jackson.databind.node.ObjectNode completion = WIRE.createObjectNode().put("id", "rehearsal")
                .put("object", "chat.completion").put("created", 0).put("model", "rehearsal");
        com.fasterxml.jackson.databind.node.ObjectNode message = completion.putArray("choices").addObject()
                .put("index", 0).put("finish_reason", asked == null ? "stop" : "tool_calls")
                .putObject("message").put("role", "assistant");
        if (asked == null) {
            message.put("content", "done");
        } else {
            message.putNull("content");
            message.putArray("tool_calls").addObject().put("id", asked.id()).put("type", "function")
                    .putObject("function").put("name", asked.name()).put("arguments", asked.arguments());
        }
        completion.putObject("usage").put("prompt_tokens", 100).put("completion_tokens", 10).put("total_tokens", 110);
        return completion.toString();
    }

    /** What a turn makes of the server's chat completion. */
    private static ModelReply reply(ModelCall call, ChatCompletion completion) {
        if (completion == null || completion.choices() == null || completion.choices().isEmpty()
                || completion.choices().get(0) == null || completion.choices().get(0).message() == null) {
            return new ModelReply.Failed("model_garbage", "the model server's answer has no message");
        }
        ChatCompletionMessage output = completion.choices().get(0).message();
        List<ToolCall> calls = new ArrayList<>();
        if (output.toolCalls() != null) {
            for (ChatCompletionMessage.ToolCall asked : output.toolCalls()) {
                if (asked == null || asked.function() == null) {
                    return new ModelReply.Failed("model_garbage", "the model server's answer has a tool call "
                            + "without a function");
                }
                calls.add(new ToolCall(asked.id(), asked.function().name(), asked.function().arguments()));
            }
        }
        String text = output.content() == null ? "" : output.content();
        OpenAiApi.Usage usage = completion.usage();
        int in = usage == null || usage.promptTokens() == null ? 0 : usage.promptTokens();
        int out = usage == null || usage.completionTokens() == null ? 0 : usage.completionTokens();
        if (in == 0 && out == 0) {
            in = estimate(call.messages().toString());
            out = estimate(text + calls);
        }
        return new ModelReply.Answered(text, List.copyOf(calls), in, out);
    }

    /**
     * The chat-completions request: the conversation, the model, {@code max_tokens}, {@code stream}
     * false and the tools; every other field of the record is left out of the JSON (null). The
     * record has no builder; LlmAgentTest checks what reaches the wire.
     */
    private ChatCompletionRequest request(ModelCall call) {
        List<FunctionTool> tools = call.tools().isEmpty() ? null
                : call.tools().stream().map(OpenAiCompatibleModel::definition).toList();
        return new ChatCompletionRequest(messages(call.messages()), model, null, null, null, null, null, null,
                call.maxTokens(), null, null, null, null, null, null, null, null, null, false, null, null, null,
                tools, null, null, null, null, null, null, null, null, null);
    }

    private static List<ChatCompletionMessage> messages(List<Message> conversation) {
        List<ChatCompletionMessage> messages = new ArrayList<>(conversation.size());
        for (Message message : conversation) {
            if (message instanceof Message.System system) {
                messages.add(new ChatCompletionMessage(system.text(), Role.SYSTEM));
            } else if (message instanceof Message.User user) {
                messages.add(new ChatCompletionMessage(user.text(), Role.USER));
            } else if (message instanceof Message.Assistant assistant) {
                List<ChatCompletionMessage.ToolCall> asked = assistant.toolCalls().isEmpty() ? null
                        : assistant.toolCalls().stream().map(call -> new ChatCompletionMessage.ToolCall(call.id(),
                                "function", new ChatCompletionFunction(call.name(), call.arguments()))).toList();
                messages.add(new ChatCompletionMessage(assistant.text(), Role.ASSISTANT, null, null, asked, null, null,
                        null, null));
            } else if (message instanceof Message.ToolResult result) {
                messages.add(new ChatCompletionMessage(result.content(), Role.TOOL, result.name(), result.callId(),
                        null, null, null, null, null));
            }
        }
        return messages;
    }

    /** A tool the model may ask for; RingZero runs it itself, after the kernel's verdict. */
    private static FunctionTool definition(ToolSpec tool) {
        return new FunctionTool(new FunctionTool.Function(tool.description(), tool.name(), tool.inputSchema()));
    }

    /** The message of what caused {@code e} in the end (its class's name if it has none). */
    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    private static String shorten(String text) {
        if (text == null) {
            return "";
        }
        String line = text.lines().findFirst().orElse("");
        return line.length() <= 120 ? line : line.substring(0, 120) + "…";
    }

    private static int estimate(String text) {
        return Math.max(1, text.length() / CHARS_PER_TOKEN);
    }
}
