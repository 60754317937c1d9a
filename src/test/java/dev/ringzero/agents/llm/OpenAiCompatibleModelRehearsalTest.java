package dev.ringzero.agents.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The model client's rehearsal: a turn's request and a server's answer go through the client's
 * own mapping, with nothing sent (the settings point at a port nothing listens on), and an answer
 * that is not a chat completion fails as a turn's would.
 */
class OpenAiCompatibleModelRehearsalTest {

    private final OpenAiCompatibleModel underTest = new OpenAiCompatibleModel(
            new LlmSettings("http://127.0.0.1:9", "rehearsal", null, null, null, 0, 0, 0, null));

    private final ModelCall call = new ModelCall(List.of(new Message.System("greet"), new Message.User("hello")),
            List.of(new ToolSpec("display__show_text", "display.show_text", ToolSpec.Kind.COMMAND, "shows text",
                    "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}")),
            64);

    @Test
    void aToolCallIsReadAsTheTurnWouldReadIt() {
        ModelReply reply = underTest.replayed(call, """
                {"id":"r","object":"chat.completion","created":0,"model":"rehearsal",
                 "choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,
                   "tool_calls":[{"id":"c1","type":"function",
                                  "function":{"name":"display__show_text","arguments":"{\\"text\\":\\"hi\\"}"}}]}}],
                 "usage":{"prompt_tokens":100,"completion_tokens":10,"total_tokens":110}}""");

        assertThat(reply).isEqualTo(new ModelReply.Answered("",
                List.of(new ToolCall("c1", "display__show_text", "{\"text\":\"hi\"}")), 100, 10));
    }

    @Test
    void aRehearsedReplyCallsWhatItWasGivenOrAnswersFinally() {
        ToolCall asked = new ToolCall("c1", "display__show_text", "{\"text\":\"hi\"}");

        assertThat(underTest.rehearse(call, asked)).isEqualTo(new ModelReply.Answered("", List.of(asked), 100, 10));
        assertThat(underTest.rehearse(call, null)).isEqualTo(new ModelReply.Answered("done", List.of(), 100, 10));
    }

    @Test
    void anAnswerThatIsNoChatCompletionFailsAsGarbage() {
        ModelReply reply = underTest.replayed(call, "<html>not a model</html>");

        assertThat(reply).isInstanceOf(ModelReply.Failed.class);
        assertThat(((ModelReply.Failed) reply).code()).isEqualTo("model_garbage");
    }

    @Test
    void aCompletionWithoutAChoiceFailsAsGarbage() {
        ModelReply reply = underTest.replayed(call, "{\"id\":\"r\",\"choices\":[]}");

        assertThat(((ModelReply.Failed) reply).code()).isEqualTo("model_garbage");
    }
}
