package dev.ringzero.agents.llm;

import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.observation.ObservationRegistry;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.openai.api.OpenAiApi;
import org.springframework.ai.retry.NonTransientAiException;
import org.springframework.ai.retry.TransientAiException;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * The {@link Model} on any OpenAI-compatible chat-completions endpoint, through Spring AI's OpenAI
 * client. Spring AI's own tool execution is off and it never retries: a tool call comes back to the
 * session, which asks ring 0 before anything runs, and a failed turn is the session's to judge.
 */
final class OpenAiCompatibleModel implements Model {

    /** Where a server reports no usage, about four characters make a token. */
    private static final int CHARS_PER_TOKEN = 4;

    private final OpenAiChatModel chat;
    private final String model;
    private final long replySeconds;

    OpenAiCompatibleModel(LlmSettings settings) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER).build();
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(http);
        requests.setReadTimeout(settings.replyTimeout());
        OpenAiApi api = OpenAiApi.builder().baseUrl(settings.baseUrl())
                .apiKey(settings.apiKey().isEmpty() ? "none" : settings.apiKey())
                .restClientBuilder(RestClient.builder().requestFactory(requests)).build();
        this.model = settings.model();
        this.replySeconds = settings.replyTimeout().toSeconds();
        this.chat = OpenAiChatModel.builder().openAiApi(api)
                .defaultOptions(OpenAiChatOptions.builder().model(model).internalToolExecutionEnabled(false).build())
                .toolCallingManager(ToolCallingManager.builder().build())
                .retryTemplate(RetryTemplate.builder().maxAttempts(1).build())
                .observationRegistry(ObservationRegistry.NOOP).build();
    }

    @Override
    public ModelReply ask(ModelCall call) {
        OpenAiChatOptions options = OpenAiChatOptions.builder().model(model).internalToolExecutionEnabled(false)
                .maxTokens(call.maxTokens())
                .toolCallbacks(call.tools().stream().map(OpenAiCompatibleModel::definitionOnly).toList()).build();
        ChatResponse response;
        try {
            response = chat.call(new Prompt(messages(call.messages()), options));
        } catch (ResourceAccessException e) {
            return timedOut(e) ? new ModelReply.Failed("model_timeout", "the model did not answer within "
                    + replySeconds + " s")
                    : new ModelReply.Failed("model_unreachable", "the model server cannot be reached: " + rootMessage(e));
        } catch (NonTransientAiException | TransientAiException e) {
            return new ModelReply.Failed("model_error", "the model server refused the turn: " + shorten(e.getMessage()));
        } catch (RestClientException | IllegalStateException | IllegalArgumentException | NullPointerException e) {
            // an answer that is not a chat completion (HTML, truncated JSON, no choices, ...)
            return new ModelReply.Failed("model_garbage", "the model server's answer is not a chat completion: "
                    + shorten(rootMessage(e)));
        }
        if (response == null || response.getResult() == null || response.getResult().getOutput() == null) {
            return new ModelReply.Failed("model_garbage", "the model server's answer has no message");
        }
        AssistantMessage output = response.getResult().getOutput();
        List<ToolCall> calls = output.getToolCalls().stream()
                .map(asked -> new ToolCall(asked.id(), asked.name(), asked.arguments())).toList();
        String text = output.getText() == null ? "" : output.getText();
        Usage usage = response.getMetadata() == null ? null : response.getMetadata().getUsage();
        int in = usage == null || usage.getPromptTokens() == null ? 0 : usage.getPromptTokens();
        int out = usage == null || usage.getCompletionTokens() == null ? 0 : usage.getCompletionTokens();
        if (in == 0 && out == 0) {
            in = estimate(call.messages().toString());
            out = estimate(text + calls);
        }
        return new ModelReply.Answered(text, calls, in, out);
    }

    private static List<org.springframework.ai.chat.messages.Message> messages(List<Message> conversation) {
        List<org.springframework.ai.chat.messages.Message> messages = new ArrayList<>();
        List<ToolResponseMessage.ToolResponse> results = new ArrayList<>();
        for (Message message : conversation) {
            if (!(message instanceof Message.ToolResult) && !results.isEmpty()) {
                messages.add(ToolResponseMessage.builder().responses(List.copyOf(results)).build());
                results.clear();
            }
            if (message instanceof Message.System system) {
                messages.add(new SystemMessage(system.text()));
            } else if (message instanceof Message.User user) {
                messages.add(new UserMessage(user.text()));
            } else if (message instanceof Message.Assistant assistant) {
                messages.add(AssistantMessage.builder().content(assistant.text())
                        .toolCalls(assistant.toolCalls().stream().map(call -> new AssistantMessage.ToolCall(call.id(),
                                "function", call.name(), call.arguments())).toList()).build());
            } else if (message instanceof Message.ToolResult result) {
                results.add(new ToolResponseMessage.ToolResponse(result.callId(), result.name(), result.content()));
            }
        }
        if (!results.isEmpty()) {
            messages.add(ToolResponseMessage.builder().responses(List.copyOf(results)).build());
        }
        return messages;
    }

    /** A tool the model may ask for; never called here (internal tool execution is off). */
    private static ToolCallback definitionOnly(ToolSpec tool) {
        ToolDefinition definition = ToolDefinition.builder().name(tool.name()).description(tool.description())
                .inputSchema(tool.inputSchema()).build();
        return new ToolCallback() {
            @Override
            public ToolDefinition getToolDefinition() {
                return definition;
            }

            @Override
            public String call(String arguments) {
                throw new IllegalStateException("RingZero runs tools itself, after the kernel's verdict");
            }
        };
    }

    private static boolean timedOut(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof HttpTimeoutException || cause instanceof java.net.SocketTimeoutException) {
                return true;
            }
            if (cause instanceof ConnectException) {
                return false;
            }
        }
        return false;
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
