package dev.ringzero.router;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Optionally forwards main-chat fallback messages to a webhook (the personal agent's chat, for
 * instance): {@code ringzero.fallback.webhook-url}. Sent after the routing transaction commits,
 * asynchronously, best effort; the inbox remains the record.
 */
@Component
class FallbackWebhook {

    private static final Logger log = LoggerFactory.getLogger(FallbackWebhook.class);

    private final String url;
    private final com.fasterxml.jackson.databind.ObjectMapper json;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    FallbackWebhook(@Value("${ringzero.fallback.webhook-url:}") String url,
            com.fasterxml.jackson.databind.ObjectMapper json) {
        this.url = url;
        this.json = json;
    }

    void deliverAfterCommit(String ownerId, String text, String data) {
        if (url.isBlank()) {
            return;
        }
        String body;
        try {
            body = json.writeValueAsString(java.util.Map.of("owner", ownerId, "text", text, "data", json.readTree(data)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        Runnable send = () -> http.sendAsync(HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.discarding())
                .whenComplete((response, error) -> {
                    if (error != null || response.statusCode() >= 300) {
                        log.warn("fallback webhook failed: {}", error != null ? error.toString() : response.statusCode());
                    }
                });
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    send.run();
                }
            });
        } else {
            send.run();
        }
    }
}
