package dev.ringzero.ecosystem;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.StoredJson;
import dev.ringzero.gates.Attempts;
import dev.ringzero.gates.Execution;
import dev.ringzero.gates.Gate;
import dev.ringzero.gates.IntentExecutor;
import dev.ringzero.Refusal;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * {@code webhook.post {url, body}}: one HTTP(S) POST of a JSON body to a host on the owner's
 * allowlist ({@link WebhookHosts}), checked when the gate is filed and again just before sending.
 * Redirects are not followed (they could leave the allowlist). The gate id travels as the
 * {@code Idempotency-Key} header; the pre-send record means a crash is never re-sent blindly. A
 * non-2xx answer fails the gate.
 */
@Component
class WebhookPostExecutor implements IntentExecutor {

    static final String INTENT = "webhook.post";
    private static final int MAX_BODY = 64 * 1024;
    private static final int MAX_ANSWER = 2_000;

    private final WebhookHosts hosts;
    private final Attempts attempts;
    private final ObjectMapper json;
    private final HttpClient http;
    private final Duration timeout;

    WebhookPostExecutor(WebhookHosts hosts, Attempts attempts, ObjectMapper json,
            @Value("${ringzero.webhook.timeout:PT10S}") Duration timeout) {
        this.hosts = hosts;
        this.attempts = attempts;
        this.json = json;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    @Override
    public boolean handles(String intent) {
        return INTENT.equals(intent);
    }

    @Override
    public void validate(String ownerId, String intent, JsonNode payload) {
        URI url = url(payload.path("url"));
        if (!hosts.allowed(ownerId, url.getHost())) {
            throw Refusal.invalid("host-not-allowed", "webhook host '" + url.getHost()
                    + "' is not on your allowlist (/api/v1/webhook-hosts)");
        }
        if (payload.path("body").toString().length() > MAX_BODY) {
            throw Refusal.invalid("invalid-payload", "webhook.post body is larger than 64 KiB");
        }
    }

    @Override
    public Execution execute(Gate gate) {
        JsonNode payload = StoredJson.tree(json, gate.payload());
        URI url = url(payload.path("url"));
        if (!hosts.allowed(gate.ownerId(), url.getHost())) {
            Execution earlier = attempts.reconcile(gate);
            return earlier instanceof Execution.NotStarted
                    ? new Execution.Failed(StoredJson.write(json, Map.of("outcome", "failed",
                            "error", "host_not_allowed", "message", "host '" + url.getHost() + "' left the allowlist")))
                    : earlier;
        }
        JsonNode body = payload.has("body") ? payload.get("body") : json.createObjectNode();
        return attempts.external(gate, "webhook", gate.id(), () -> {
            HttpRequest request = HttpRequest.newBuilder(url).timeout(timeout)
                    .header("Content-Type", "application/json")
                    .header("Idempotency-Key", gate.id())
                    .header("User-Agent", "RingZero-webhook/1")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            String answer = response.body() == null ? "" : response.body();
            if (answer.length() > MAX_ANSWER) {
                answer = answer.substring(0, MAX_ANSWER);
            }
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException("HTTP " + response.statusCode() + " from " + url.getHost());
            }
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("outcome", "completed");
            result.put("status", response.statusCode());
            result.put("body", answer);
            return StoredJson.write(json, result);
        });
    }

    @Override
    public Execution reconcile(Gate gate) {
        return attempts.reconcile(gate);
    }

    private static URI url(JsonNode node) {
        try {
            URI url = URI.create(node.isTextual() ? node.asText() : "");
            String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
            if (!scheme.equals("https") && !scheme.equals("http") || url.getHost() == null
                    || url.getRawUserInfo() != null) {
                throw new IllegalArgumentException();
            }
            return url;
        } catch (IllegalArgumentException e) {
            throw Refusal.invalid("invalid-payload", "webhook.post needs an http(s) url with a host "
                    + "and no user info");
        }
    }

}
