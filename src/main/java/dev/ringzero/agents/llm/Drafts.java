package dev.ringzero.agents.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.Refusal;
import dev.ringzero.agents.definition.AgentSchema;
import dev.ringzero.agents.definition.DefinitionValidator;
import dev.ringzero.agents.definition.PlatformCatalogue;
import dev.ringzero.agents.definition.Validation;
import dev.ringzero.agents.definition.Violation;
import dev.ringzero.agents.runs.DryRun;
import dev.ringzero.gadgets.GadgetRegistry;
import dev.ringzero.gadgets.GadgetView;

/**
 * Drafts from a sentence: the configured model writes a definition from what the owner said, the
 * schema, the catalogue and the owner's gadgets; the validator judges it and the model repairs it
 * from the validator's errors, up to {@value #REPAIRS} times; a valid draft comes back with its dry
 * run. Nothing is saved: the person saves it (or not).
 */
public class Drafts {

    static final int REPAIRS = 3;
    static final int MAX_TEXT = 2_000;

    /**
     * A draft: valid (with its dry run) or, after the repairs, still invalid (with what is wrong, so
     * a person can finish it). {@code attempts} counts the model's answers.
     */
    public record Draft(boolean valid, JsonNode definition, List<Violation> violations, DryRun.Report dryRun,
            int attempts) {
    }

    private final Model model;
    private final LlmSettings settings;
    private final DefinitionValidator validator;
    private final GadgetRegistry gadgets;
    private final DryRun dryRun;
    private final ObjectMapper json;

    Drafts(Model model, LlmSettings settings, DefinitionValidator validator, GadgetRegistry gadgets, DryRun dryRun,
            ObjectMapper json) {
        this.model = model;
        this.settings = settings;
        this.validator = validator;
        this.gadgets = gadgets;
        this.dryRun = dryRun;
        this.json = json;
    }

    public Draft draft(String ownerId, String text) {
        if (text == null || text.isBlank()) {
            throw Refusal.invalid("invalid-draft-request", "say in \"text\" what the agent should do");
        }
        if (text.length() > MAX_TEXT) {
            throw Refusal.invalid("invalid-draft-request", "\"text\" is at most " + MAX_TEXT + " characters");
        }
        if (!settings.configured()) {
            throw new Refusal(Refusal.Kind.UNAVAILABLE, "llm-unconfigured", "drafts need a model: set "
                    + "ringzero.llm.base-url and ringzero.llm.model (docs/llm-agents.md)");
        }
        List<Message> messages = new ArrayList<>();
        messages.add(new Message.System(instructions(ownerId)));
        messages.add(new Message.User("The owner asks for this agent:\n" + text.strip()));
        JsonNode definition = null;
        List<Violation> violations = List.of();
        for (int attempt = 1; attempt <= REPAIRS + 1; attempt++) {
            ModelReply reply = model.ask(new ModelCall(messages, List.of(), settings.maxTokensPerTurn() * 2));
            if (reply instanceof ModelReply.Failed failed) {
                throw new Refusal(Refusal.Kind.UNAVAILABLE, "model-failed", failed.code() + ": " + failed.message());
            }
            String answer = ((ModelReply.Answered) reply).text();
            messages.add(new Message.Assistant(answer, List.of()));
            definition = objectIn(answer);
            if (definition == null) {
                violations = List.of(new Violation("", Violation.SCHEMA, "the answer holds no JSON object"));
            } else {
                Validation validation = validator.validate(definition, ownerId);
                if (validation instanceof Validation.Valid valid) {
                    return new Draft(true, definition, List.of(), dryRun.unsaved(ownerId, valid.spec(), null), attempt);
                }
                violations = ((Validation.Invalid) validation).violations();
            }
            messages.add(new Message.User("The platform refused that definition:\n" + json.valueToTree(violations)
                    + "\nAnswer with the corrected definition: one JSON object, nothing else."));
        }
        return new Draft(false, definition, violations, null, REPAIRS + 1);
    }

    private String instructions(String ownerId) {
        ArrayNode owned = json.createArrayNode();
        for (GadgetView gadget : gadgets.list(ownerId)) {
            ObjectNode node = owned.addObject().put("id", gadget.id()).put("name", gadget.name());
            node.set("events", json.valueToTree(gadget.events()));
            ObjectNode commands = node.putObject("commands");
            gadget.commands().forEach((name, spec) -> commands.putObject(name)
                    .put("description", spec.description())
                    .set("params", json.valueToTree(Map.of("required", spec.required(), "optional", spec.optional()))));
        }
        return """
                You write gadget-agent definitions for RingZero. Answer with one JSON object that is a \
                definition (apiVersion "ringzero/v1") and nothing else: no prose, no code fence.
                Use kind "rules" with fixed actions whenever fixed actions do what the owner asks; use kind "llm" \
                (with "instructions" and the tools it needs in "allow") only when it needs judgement. \
                Name only the owner's gadgets below, their registered commands and events, and grant in "allow" \
                exactly the commands, tools and intents the agent uses.
                The definition's JSON Schema:
                """ + AgentSchema.document() + "\nPlatform tools and intents: " + json.valueToTree(
                PlatformCatalogue.catalogue()) + "\nThe owner's gadgets: " + owned;
    }

    /** The JSON object in a model's answer (it may wrap it in a code fence or a sentence); null if none. */
    JsonNode objectIn(String answer) {
        if (answer == null) {
            return null;
        }
        int start = answer.indexOf('{');
        int end = answer.lastIndexOf('}');
        if (start < 0 || end <= start) {
            return null;
        }
        try {
            JsonNode node = json.readTree(answer.substring(start, end + 1));
            return node != null && node.isObject() ? node : null;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
    }
}
