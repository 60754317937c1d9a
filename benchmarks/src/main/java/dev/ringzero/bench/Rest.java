package dev.ringzero.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

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

    /** Where requests go: the first that answers (several: the nodes of a cluster, any of which serves the API). */
    private final List<String> bases;
    private final String authorization;

    private Rest(List<String> bases, String authorization) {
        this.bases = bases.stream().map(b -> b.endsWith("/") ? b.substring(0, b.length() - 1) : b).toList();
        this.authorization = authorization;
    }

    static Rest at(String base) {
        return new Rest(List.of(base), null);
    }

    /**
     * Any of the nodes of a cluster: each request goes to the first that accepts the connection, so
     * a call made while one node is down (killed, restarting) goes to another that is up.
     */
    static Rest atAny(List<String> bases) {
        if (bases.isEmpty()) {
            throw new IllegalArgumentException("no node to call");
        }
        return new Rest(bases, null);
    }

    Rest basic(String user, String password) {
        return new Rest(bases, "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }

    Rest bearer(String token) {
        return new Rest(bases, "Bearer " + token);
    }

    Response get(String path) {
        return send(path, b -> b.GET());
    }

    Response post(String path, String body) {
        return send(path, b -> b.header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body == null ? "" : body)));
    }

    private HttpRequest.Builder request(String base, String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b;
    }

    private Response send(String path, java.util.function.UnaryOperator<HttpRequest.Builder> method) {
        for (int i = 0; ; i++) {
            try {
                HttpResponse<String> r = HTTP.send(method.apply(request(bases.get(i), path)).build(),
                        HttpResponse.BodyHandlers.ofString());
                return new Response(r.statusCode(), r.body());
            } catch (java.net.ConnectException refused) {
                // nothing listens there (a node down): the next node, if any; a request that was
                // sent and then failed is not sent again, it may have been carried out
                if (i + 1 == bases.size()) {
                    throw new IllegalStateException(refused);
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
