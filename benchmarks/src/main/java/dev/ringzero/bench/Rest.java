package dev.ringzero.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The platform's REST API as a client sees it (CONTRACTS.md section 2). */
final class Rest {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    record Response(int status, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new IllegalStateException("not JSON (" + status + "): " + body, e);
            }
        }

        Response expect(int expected, String what) {
            if (status != expected) {
                throw new IllegalStateException(what + " answered " + status + ": " + body);
            }
            return this;
        }
    }

    private final String base;
    private final String authorization;

    private Rest(String base, String authorization) {
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.authorization = authorization;
    }

    static Rest at(String base) {
        return new Rest(base, null);
    }

    Rest basic(String user, String password) {
        return new Rest(base, "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }

    Rest bearer(String token) {
        return new Rest(base, "Bearer " + token);
    }

    Response get(String path) {
        return send(request(path).GET());
    }

    Response post(String path, String body) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body == null ? "" : body)));
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b;
    }

    private static Response send(HttpRequest.Builder builder) {
        try {
            HttpResponse<String> r = HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
