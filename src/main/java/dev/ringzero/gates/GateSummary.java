package dev.ringzero.gates;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The frozen payload in words, for the person at the desk: recipients, subject and body of an
 * email; the command and its parameters for a gadget; the URL and body of a webhook. The exact
 * bytes (and their SHA-256) are shown beside it, so nothing is hidden by the wording.
 */
final class GateSummary {

    private GateSummary() {
    }

    static String of(String intent, JsonNode payload) {
        return switch (intent) {
            case "email.send" -> "Send an email\nTo: " + list(payload.path("to")) + "\nSubject: "
                    + payload.path("subject").asText("") + "\n\n" + payload.path("body").asText("");
            case "webhook.post" -> "POST to " + payload.path("url").asText("") + "\nBody: "
                    + payload.path("body").toPrettyString();
            case "inbox.post" -> "Post to your inbox: " + payload.path("text").asText("");
            default -> payload.has("gadget") ? device(intent, payload) : payload.toPrettyString();
        };
    }

    private static String device(String intent, JsonNode payload) {
        StringBuilder text = new StringBuilder("Run ").append(intent).append(" on gadget ")
                .append(payload.path("gadget").asText());
        JsonNode params = payload.path("params");
        if (params.isObject() && !params.isEmpty()) {
            text.append("\nParameters:");
            for (Iterator<Map.Entry<String, JsonNode>> fields = params.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                text.append("\n  ").append(field.getKey()).append(": ")
                        .append(field.getValue().isTextual() ? field.getValue().asText() : field.getValue().toString());
            }
        }
        return text.toString();
    }

    private static String list(JsonNode node) {
        if (!node.isArray()) {
            return node.asText("");
        }
        List<String> items = new ArrayList<>();
        node.forEach(item -> items.add(item.asText()));
        return String.join(", ", items);
    }
}
