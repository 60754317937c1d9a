package dev.ringzero.agents.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.Refusal;
import dev.ringzero.support.Api;
import dev.ringzero.support.OwnerWithDeskBotTest;
import dev.ringzero.support.ScriptedModel;
import dev.ringzero.support.ScriptedModel.Reply;
import org.junit.jupiter.api.Test;

/** {@code POST /api/v1/gadget-agents/drafts} against a scripted OpenAI-compatible server. */
class DraftsTest extends OwnerWithDeskBotTest {

    private final String marker = "draft-" + UUID.randomUUID();
    private final ScriptedModel.Script model = ScriptedModel.script(marker);

    private String definition(String gadget) {
        return """
                {"apiVersion":"ringzero/v1","name":"Bark","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"gadget.event","gadget":"%1$s","event":"shaken"}],
                 "actions":[{"gadget":"%1$s","command":"speaker.play_url","params":{"url":"https://example.org/bark.mp3"}}],
                 "allow":{"commands":["speaker.play_url"]}}""".formatted(gadget);
    }

    private Api.Response draft(String text) {
        return alice.post("/api/v1/gadget-agents/drafts", new ObjectMapper().createObjectNode().put("text", text)
                .toString());
    }

    @Test
    void aDraftThatFailsValidationIsRepairedFromTheValidatorsErrors() {
        model.then(Reply.answer("Here it is:\n```json\n" + definition("desk-9") + "\n```"))
                .then(Reply.answer(definition(bot.gadgetId())));

        Api.Response response = draft("when my desk bot is shaken hard, play the bark sound " + marker);

        assertThat(response.status()).as(response.body()).isEqualTo(200);
        JsonNode draft = response.json();
        assertThat(draft.path("valid").asBoolean()).isTrue();
        assertThat(draft.path("attempts").asInt()).isEqualTo(2);
        assertThat(draft.path("definition").path("gadgets").get(0).asText()).isEqualTo(bot.gadgetId());
        assertThat(draft.path("dryRun").isObject()).isTrue();
        // the model was shown the owner's gadgets, then the validator's errors
        assertThat(model.requests().get(0).text()).contains(bot.gadgetId()).contains("speaker.play_url");
        assertThat(model.requests().get(1).text()).contains("unknown_gadget");
        // nothing was saved
        assertThat(alice.get("/api/v1/gadget-agents").json()).isEmpty();
    }

    @Test
    void afterThreeRepairsAnInvalidDraftComesBackWithWhatIsWrong() {
        for (int i = 0; i < 4; i++) {
            model.then(Reply.answer("I would rather chat."));
        }

        JsonNode draft = draft("something vague " + marker).json();

        assertThat(draft.path("valid").asBoolean()).isFalse();
        assertThat(draft.path("attempts").asInt()).isEqualTo(4);
        assertThat(draft.path("violations").findValuesAsText("message")).contains("the answer holds no JSON object");
        assertThat(model.requests()).hasSize(4);
    }

    @Test
    void aFailingModelIsAClearProblem() {
        model.then(Reply.raw(500, "{\"error\":{\"message\":\"boom\"}}"));

        Api.Response response = draft("play a sound " + marker);

        assertThat(response.status()).isEqualTo(503);
        assertThat(response.json().path("type").asText()).endsWith("model-failed");
    }

    @Test
    void noTextIsABadRequest() {
        assertThat(draft(" ").status()).isEqualTo(400);
        assertThat(alice.post("/api/v1/gadget-agents/drafts", "{\"text\":5}").status()).isEqualTo(400);
        assertThat(draft("x".repeat(Drafts.MAX_TEXT + 1)).status()).isEqualTo(400);
    }

    @Test
    void withoutAModelADraftSaysWhatIsMissing() {
        Drafts unconfigured = new Drafts(null, new LlmSettings(null, null, null, null, null, 0, 0, 0, null), null, null,
                null, new ObjectMapper());

        assertThatThrownBy(() -> unconfigured.draft("alice", "play a sound")).isInstanceOfSatisfying(Refusal.class,
                refusal -> {
                    assertThat(refusal.kind()).isEqualTo(Refusal.Kind.UNAVAILABLE);
                    assertThat(refusal.getMessage()).contains("ringzero.llm.base-url");
                });
    }
}
