package dev.ringzero.fuzz;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;

/**
 * A seeded generator of hostile JSON: it takes a valid document and breaks it the ways a careless
 * or hostile client does (wrong types, missing and extra fields, huge strings, control characters,
 * odd unicode, deep nesting, numbers out of range, template syntax), sometimes also the text
 * itself (truncated, trailing garbage, a stray byte). Everything comes from one {@link Random},
 * so a seed replays the same inputs in the same order.
 */
final class Mutator {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectWriter PLAIN = JSON.writer();
    private static final ObjectWriter ASCII = JSON.writer().with(JsonWriteFeature.ESCAPE_NON_ASCII);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Strings that have broken parsers, validators, templates, schedules and databases before. */
    private static final String[] HOSTILE = {
        "", " ", "\u0000", "desk\u0000bot", "bell\u0007", "line\nbreak", "tab\there", "\u001b[31mred", "\u007f",
        "\u202egnp.exe", "\ufeffbom", "e\u0301\u0301\u0301", "\ud83d\ude00", "\u0665\u0666", "\uff10\uff18:\uff10\uff10",
        "\u200b", "\u00a0", "\ud800\udc00", "null", "true", "0", "-1", "NaN", "[]", "{}",
        "{{event.data.strength}}", "{{", "}}", "{{{event}}}", "{{#each event}}{{this}}{{/each}}", "{{event.__proto__}}",
        "{{../../../../etc/passwd}}", "{{event.data.strength}}{{event.data.strength}}", "{{ state.x | upper }}",
        "${jndi:ldap://127.0.0.1/x}", "%s%s%n", "'; drop table rz_agent; --", "<script>alert(1)</script>",
        "../../etc/passwd", "http://169.254.169.254/latest", "file:///etc/passwd", "https://example.org/bark.mp3",
        "0 0 31 2 *", "* * * * *", "0 8 * * 1-5", "61 25 * * *", "\uff10 8 * * *", "@reboot", "0 0 0 0 0 0 0",
        "07:00", "07:00:00", "24:00", "23:59", "-1:00", "7:00", "07:60", "Europe/Berlin", "UTC", "Mars/Olympus",
        "GMT+25", "../UTC", "single", "queued", "restart", "parallel", "rules", "llm", "gadget.event", "schedule",
        "invoke", "speaker.play_url", "display.show_text", "speaker.say", "shaken", "ringzero/v1", "ringzero/v2",
        "link.event", "link.register", "link.result", "mon", "sun", "funday",
    };

    private static final String[] RAW_NUMBERS = {
        "1e400", "-1e400", "1e-400", "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890",
        "-0", "0.0000001", "2147483648", "-2147483649", "4.9e-324", "1.7976931348623157e308", "0", "-1", "1.5",
    };

    private final Random random;

    Mutator(Random random) {
        this.random = random;
    }

    Random random() {
        return random;
    }

    static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** One hostile variant of {@code valid}: 1-3 tree mutations, and now and then a text one. */
    String mutate(String valid) {
        return mutate(parse(valid));
    }

    String mutate(JsonNode valid) {
        JsonNode tree = valid.deepCopy();
        int mutations = 1 + random.nextInt(3);
        for (int i = 0; i < mutations; i++) {
            tree = mutateOnce(tree);
        }
        String text = write(tree);
        return random.nextInt(10) == 0 ? mutateText(text) : text;
    }

    /** A tree as JSON text, with non-ASCII escaped or not (lone surrogates go in raw, escaped). */
    String write(JsonNode tree) {
        try {
            return (random.nextBoolean() ? ASCII : PLAIN).writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A slot in the tree: a field of an object or an element of an array. */
    private record Slot(JsonNode container, String field, int index) {
    }

    private JsonNode mutateOnce(JsonNode tree) {
        List<Slot> slots = new ArrayList<>();
        collect(tree, slots, 0);
        if (slots.isEmpty() || random.nextInt(20) == 0) {
            return randomValue(2); // the whole document replaced
        }
        Slot slot = slots.get(random.nextInt(slots.size()));
        JsonNode current = slot.field() != null ? slot.container().get(slot.field()) : slot.container().get(slot.index());
        switch (random.nextInt(9)) {
            case 0 -> remove(slot);
            case 1 -> {
                List<JsonNode> objects = new ArrayList<>();
                collectObjects(tree, objects);
                if (!objects.isEmpty()) {
                    ((ObjectNode) objects.get(random.nextInt(objects.size()))).set(randomKey(), randomValue(2));
                }
            }
            case 2 -> put(slot, hostileString());
            case 3 -> put(slot, rawNumber());
            case 4 -> put(slot, deep());
            case 5 -> put(slot, wrongType(current));
            case 6 -> put(slot, current != null && current.isTextual() ? NODES.textNode(spliced(current.asText()))
                    : randomValue(1));
            case 7 -> put(slot, current != null && current.isTextual()
                    ? NODES.textNode(current.asText().repeat(1 + random.nextInt(3000))) : NODES.textNode(huge()));
            default -> put(slot, randomValue(3));
        }
        return tree;
    }

    private void collect(JsonNode node, List<Slot> slots, int depth) {
        if (depth > 12) {
            return;
        }
        if (node instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> entry = it.next();
                slots.add(new Slot(object, entry.getKey(), -1));
                collect(entry.getValue(), slots, depth + 1);
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                slots.add(new Slot(array, null, i));
                collect(array.get(i), slots, depth + 1);
            }
        }
    }

    private void collectObjects(JsonNode node, List<JsonNode> objects) {
        if (node instanceof ObjectNode) {
            objects.add(node);
        }
        if (node.isContainerNode()) {
            node.forEach(child -> collectObjects(child, objects));
        }
    }

    private static void remove(Slot slot) {
        if (slot.field() != null) {
            ((ObjectNode) slot.container()).remove(slot.field());
        } else {
            ((ArrayNode) slot.container()).remove(slot.index());
        }
    }

    private static void put(Slot slot, JsonNode value) {
        if (slot.field() != null) {
            ((ObjectNode) slot.container()).set(slot.field(), value);
        } else {
            ((ArrayNode) slot.container()).set(slot.index(), value);
        }
    }

    private JsonNode wrongType(JsonNode current) {
        if (current == null || current.isTextual()) {
            return random.nextBoolean() ? NODES.numberNode(random.nextInt(100) - 50) : NODES.booleanNode(true);
        }
        if (current.isNumber() || current.isBoolean()) {
            return NODES.textNode(current.asText());
        }
        if (current.isArray()) {
            return current.isEmpty() ? NODES.textNode("x") : current.get(0).deepCopy(); // the element, unwrapped
        }
        if (current.isObject()) {
            ArrayNode wrapped = NODES.arrayNode();
            wrapped.add(current.deepCopy());
            return wrapped;
        }
        return NODES.objectNode();
    }

    /** Any JSON value, nested at most {@code depth} deep. */
    JsonNode randomValue(int depth) {
        int kind = random.nextInt(depth > 0 ? 9 : 7);
        return switch (kind) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.booleanNode(random.nextBoolean());
            case 2 -> NODES.numberNode(random.nextInt(2001) - 1000);
            case 3 -> NODES.numberNode(random.nextDouble() * Math.pow(10, random.nextInt(40) - 20));
            case 4 -> rawNumber();
            case 5, 6 -> hostileString();
            case 7 -> {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(randomValue(depth - 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = NODES.objectNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    object.set(randomKey(), randomValue(depth - 1));
                }
                yield object;
            }
        };
    }

    private String randomKey() {
        String[] keys = {"id", "name", "kind", "gadget", "event", "data", "when", "params", "command", "trigger",
            "extra", "__proto__", "constructor", "$ref", "", " ", "a\u0000b", "\ud83d\ude00", "type", "enabled", "budget"};
        return random.nextInt(4) == 0 ? randomText(1 + random.nextInt(12)) : keys[random.nextInt(keys.length)];
    }

    /** A hostile string; a lone surrogate (which no Java writer emits) goes in as raw, escaped JSON. */
    JsonNode hostileString() {
        return switch (random.nextInt(6)) {
            case 0 -> NODES.rawValueNode(new RawValue("\"half \\ud800 pair\""));
            case 1 -> NODES.rawValueNode(new RawValue("\"\\udfff" + (random.nextBoolean() ? "\\u0000" : "") + "\""));
            case 2 -> NODES.textNode(randomText(1 + random.nextInt(40)));
            case 3 -> NODES.textNode(huge());
            default -> NODES.textNode(HOSTILE[random.nextInt(HOSTILE.length)]);
        };
    }

    private JsonNode rawNumber() {
        return NODES.rawValueNode(new RawValue(RAW_NUMBERS[random.nextInt(RAW_NUMBERS.length)]));
    }

    /** Arrays or objects nested 20 to 20,000 deep (beyond any sane limit, and Jackson's). */
    private JsonNode deep() {
        int[] depths = {20, 200, 999, 1001, 5000, 20_000};
        int depth = depths[random.nextInt(depths.length)];
        StringBuilder text = new StringBuilder(depth * 8);
        boolean objects = random.nextBoolean();
        for (int i = 0; i < depth; i++) {
            text.append(objects ? "{\"a\":" : "[");
        }
        text.append(random.nextBoolean() ? "1" : "\"x\"");
        for (int i = 0; i < depth; i++) {
            text.append(objects ? "}" : "]");
        }
        return NODES.rawValueNode(new RawValue(text.toString()));
    }

    private String huge() {
        int[] sizes = {256, 4_001, 10_000, 65_537, 200_000};
        int size = sizes[random.nextInt(sizes.length)];
        return random.nextBoolean() ? "x".repeat(size) : "\u00e9\ud83d\ude00".repeat(size / 3 + 1);
    }

    /** Random code points from every plane, control characters included (never a lone surrogate). */
    String randomText(int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            int cp = switch (random.nextInt(5)) {
                case 0 -> random.nextInt(0x20);
                case 1 -> 0x20 + random.nextInt(0x5f);
                case 2 -> 0xa0 + random.nextInt(0xd7ff - 0xa0);
                case 3 -> 0xe000 + random.nextInt(0x10000 - 0xe000);
                default -> 0x10000 + random.nextInt(0x10ffff - 0x10000);
            };
            text.appendCodePoint(cp);
        }
        return text.toString();
    }

    private String spliced(String text) {
        int at = text.isEmpty() ? 0 : random.nextInt(text.length() + 1);
        JsonNode inserted = hostileString();
        String piece = inserted.isTextual() ? inserted.asText() : randomText(3);
        if (piece.length() > 300) {
            piece = piece.substring(0, 300);
        }
        if (at > 0 && at < text.length() && Character.isHighSurrogate(text.charAt(at - 1))) {
            at--;
        }
        return text.substring(0, at) + piece + text.substring(at);
    }

    /** The text itself broken: cut short, garbage after it, a second document, a stray character. */
    String mutateText(String text) {
        int at = random.nextInt(text.length() + 1);
        return switch (random.nextInt(7)) {
            case 0 -> text.substring(0, at);
            case 1 -> text + " garbage";
            case 2 -> text + text;
            case 3 -> text.substring(0, at) + "}" + text.substring(at);
            case 4 -> text.substring(0, at) + "\u0000" + text.substring(at);
            case 5 -> text.replaceFirst("\\{", "{\"id\":1,\"id\":2,");
            default -> text.substring(0, at) + (char) (random.nextInt(0x7f)) + text.substring(at);
        };
    }
}
