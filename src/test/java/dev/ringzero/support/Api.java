package dev.ringzero.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** A small HTTP client for tests: real requests against the running platform, JSON answers. */
public final class Api {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final String base;
    private final String authorization;
    private final String accountId;

    private Api(String base, String authorization, String accountId) {
        this.base = base;
        this.authorization = authorization;
        this.accountId = accountId;
    }

    public static Api at(int port) {
        return new Api("http://127.0.0.1:" + port, null, null);
    }

    public Api bearer(String token) {
        return new Api(base, "Bearer " + token, null);
    }

    public Api basic(String user, String password) {
        return new Api(base, "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)), user);
    }

    /** Creates an owner account through the admin route and returns a client holding its token. */
    public Api newOwner(String idPrefix) {
        String id = idPrefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        Response created = basic("admin", PlatformTest.ADMIN_PASSWORD).post("/api/v1/admin/accounts",
                "{\"id\":\"" + id + "\",\"password\":\"password-" + id + "\",\"displayName\":\"" + id + "\"}");
        if (created.status() != 201) {
            throw new IllegalStateException("account creation failed: " + created);
        }
        return new Api(base, "Bearer " + created.json().get("token").asText(), id);
    }

    public Response get(String path) {
        return send(request(path).GET());
    }

    public Response post(String path, String body) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body == null ? "" : body)));
    }

    public Response put(String path, String body) {
        return send(request(path).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** Any method, any (or no) Content-Type: what a careless or hostile client sends. */
    public Response raw(String method, String path, String contentType, String body) {
        HttpRequest.Builder builder = request(path).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            builder.header("Content-Type", contentType);
        }
        return send(builder);
    }

    /** Any method, any Content-Type, any bytes (not UTF-8, say): what a fuzzer sends. */
    public Response rawBytes(String method, String path, String contentType, byte[] body) {
        HttpRequest.Builder builder = request(path).method(method, HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            builder.header("Content-Type", contentType);
        }
        return send(builder);
    }

    /** The headers of a GET's answer. */
    public java.net.http.HttpHeaders headers(String path) {
        try {
            return HTTP.send(request(path).GET().build(), HttpResponse.BodyHandlers.discarding()).headers();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Response delete(String path) {
        return send(request(path).DELETE());
    }

    /** The Bearer token this client sends (owners created by {@link #newOwner}), for other clients (MCP). */
    public String token() {
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            throw new IllegalStateException("this client holds no Bearer token");
        }
        return authorization.substring("Bearer ".length());
    }

    /** The account this client acts as (owners created by {@link #newOwner}). */
    public String accountId() {
        return accountId;
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path));
        if (authorization != null) {
            builder.header("Authorization", authorization);
        }
        return builder;
    }

    private static Response send(HttpRequest.Builder builder) {
        try {
            HttpResponse<String> response = HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    response.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public record Response(int status, String contentType, String body) {

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new IllegalStateException("not JSON: " + body, e);
            }
        }

        public boolean isProblem() {
            return contentType.startsWith("application/problem+json");
        }

        public String problemType() {
            return json().path("type").asText();
        }
    }
}
