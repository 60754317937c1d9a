package dev.ringzero.agents.definition;

import dev.ringzero.gadgets.GadgetDirectory;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.gadgets.CommandSpec;
import dev.ringzero.gadgets.CommandSpec.ParamSpec;
import dev.ringzero.gadgets.GadgetView;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Gadgets of two owners, the seeds' example definitions, and a way to break them one field at a time. */
final class Fixtures {

    static final ObjectMapper MAPPER = new ObjectMapper();

    static final String ALICE = "alice";
    static final String BOB = "bob";

    static final GadgetView DESK = new GadgetView("desk-1", ALICE, "Desk bot", true, Instant.EPOCH,
            commands(
                    command("speaker.say", Map.of("text", param("string")), Map.of()),
                    command("speaker.play_url", Map.of("url", param("string")), Map.of("duration_ms", param("number"))),
                    command("display.show_text", Map.of("text", param("string")), Map.of("seconds", param("integer"))),
                    // Registered, so that only the privileged rule stands between an agent and a firmware update.
                    command("device.ota", Map.of("url", param("string")), Map.of())),
            Set.of("shaken", "picked_up", "put_down"));

    static final GadgetView ROVER = new GadgetView("rover-1", ALICE, "Rover", true, Instant.EPOCH,
            commands(
                    command("chassis.drive", Map.of("left", param("number"), "right", param("number")),
                            Map.of("duration_ms", param("number"))),
                    command("chassis.stop", Map.of(), Map.of())),
            Set.of());

    static final GadgetView BOB_DESK = new GadgetView("bob-desk", BOB, "Bob's desk bot", true, Instant.EPOCH,
            commands(command("speaker.say", Map.of("text", param("string")), Map.of())),
            Set.of("shaken"));

    /** A directory that, like the real one, only answers for the owner's own gadgets. */
    static final GadgetDirectory DIRECTORY = (ownerId, gadgetId) -> Optional.ofNullable(
                    Map.of(DESK.id(), DESK, ROVER.id(), ROVER, BOB_DESK.id(), BOB_DESK).get(gadgetId))
            .filter(gadget -> gadget.ownerId().equals(ownerId));

    /** "When shaken hard, play the bark." */
    static final String BARK = """
            {
              "apiVersion": "ringzero/v1",
              "name": "Bark when shaken",
              "gadgets": ["desk-1"],
              "kind": "rules",
              "triggers": [
                {"kind": "gadget.event", "gadget": "desk-1", "event": "shaken",
                 "when": {"data": {"strength": "hard"}}}
              ],
              "actions": [
                {"gadget": "desk-1", "command": "speaker.play_url",
                 "params": {"url": "https://example.org/bark.mp3"}}
              ],
              "allow": {"commands": ["speaker.play_url"], "tools": [], "intents": [], "physical": false},
              "budget": {"runsPerHour": 12, "cooldownSeconds": 60, "maxRunSeconds": 30,
                         "toolCallsPerRun": 8, "tokensPerRun": 4000},
              "concurrency": "single",
              "enabled": true
            }
            """;

    /** "When picked up in the morning, say good morning." */
    static final String GOOD_MORNING = """
            {
              "apiVersion": "ringzero/v1",
              "name": "Good morning",
              "gadgets": ["desk-1"],
              "kind": "rules",
              "triggers": [
                {"kind": "gadget.event", "gadget": "desk-1", "event": "picked_up",
                 "when": {"hours": [6, 10], "timeZone": "Europe/Berlin"}}
              ],
              "actions": [
                {"gadget": "desk-1", "command": "speaker.say",
                 "params": {"text": "Good morning! You hold me {{event.data.orientation}}."}}
              ],
              "allow": {"commands": ["speaker.say"]}
            }
            """;

    /** "Every weekday at 08:00, show the day's motto." */
    static final String WEEKDAY_SCHEDULE = """
            {
              "apiVersion": "ringzero/v1",
              "name": "Weekday motto",
              "gadgets": ["desk-1"],
              "kind": "rules",
              "triggers": [
                {"kind": "schedule", "cron": "0 8 * * 1-5", "timeZone": "Europe/Berlin"}
              ],
              "actions": [
                {"gadget": "desk-1", "command": "display.show_text", "params": {"text": "Ship small, ship often"}}
              ],
              "allow": {"commands": ["display.show_text"]}
            }
            """;

    /** An LLM agent that reads the calendar and speaks; it may also drive the rover. */
    static final String LLM = """
            {
              "apiVersion": "ringzero/v1",
              "name": "Meeting nudge",
              "description": "Reminds me of my next meeting when I pick the desk bot up.",
              "gadgets": ["desk-1", "rover-1"],
              "kind": "llm",
              "triggers": [
                {"kind": "gadget.event", "gadget": "desk-1", "event": "picked_up"},
                {"kind": "invoke"}
              ],
              "instructions": "Look up my next meeting and tell me about it in one sentence. If it starts within five minutes, drive the rover forward a little.",
              "allow": {"commands": ["speaker.say", "display.show_text", "chassis.drive", "chassis.stop"],
                        "tools": ["calendar.today", "state.get"],
                        "intents": ["email.send", "speaker.say"],
                        "physical": true},
              "budget": {"runsPerHour": 30, "toolCallsPerRun": 6, "tokensPerRun": 8000},
              "concurrency": "parallel",
              "maxParallel": 2,
              "state": {"lastMeeting": null},
              "wakeOnResolve": true
            }
            """;

    private Fixtures() {
    }

    static ObjectNode json(String text) {
        try {
            return (ObjectNode) MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    static JsonNode value(String jsonText) {
        try {
            return MAPPER.readTree(jsonText);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(jsonText, e);
        }
    }

    /** Sets (or appends, at index = size) the value at {@code pointer}; {@code jsonValue} is JSON text. */
    static ObjectNode set(ObjectNode root, String pointer, String jsonValue) {
        return set(root, pointer, value(jsonValue));
    }

    static ObjectNode set(ObjectNode root, String pointer, JsonNode value) {
        JsonPointer path = JsonPointer.compile(pointer);
        JsonNode parent = root.at(path.head());
        String last = path.last().getMatchingProperty();
        if (parent instanceof ObjectNode object) {
            object.set(last, value);
        } else if (parent instanceof ArrayNode array) {
            int index = Integer.parseInt(last);
            if (index == array.size()) {
                array.add(value);
            } else {
                array.set(index, value);
            }
        } else {
            throw new IllegalArgumentException("no container at " + path.head());
        }
        return root;
    }

    static ObjectNode remove(ObjectNode root, String pointer) {
        JsonPointer path = JsonPointer.compile(pointer);
        JsonNode parent = root.at(path.head());
        String last = path.last().getMatchingProperty();
        if (parent instanceof ObjectNode object) {
            object.remove(last);
        } else if (parent instanceof ArrayNode array) {
            array.remove(Integer.parseInt(last));
        }
        return root;
    }

    /** A fresh copy of {@code definition} changed by {@code edit}. */
    static ObjectNode edit(String definition, Function<ObjectNode, ObjectNode> edit) {
        return edit.apply(json(definition));
    }

    private static ParamSpec param(String type) {
        return new ParamSpec(type, type + " parameter");
    }

    private static CommandSpec command(String name, Map<String, ParamSpec> required, Map<String, ParamSpec> optional) {
        return new CommandSpec(name, name + " for tests", required, optional, 0);
    }

    private static Map<String, CommandSpec> commands(CommandSpec... commands) {
        return Arrays.stream(commands).collect(Collectors.toMap(CommandSpec::name, Function.identity()));
    }
}
