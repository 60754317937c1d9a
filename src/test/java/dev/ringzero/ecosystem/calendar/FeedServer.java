package dev.ringzero.ecosystem.calendar;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A web server in the test JVM that serves calendars the way real ones do, and the ways they fail:
 * a feed, a redirect, a page that is not a calendar, a feed too large, an answer too slow.
 */
final class FeedServer implements AutoCloseable {

    /** What one path answers. */
    interface Answer {
        void handle(HttpExchange exchange) throws IOException, InterruptedException;
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final AtomicInteger requests = new AtomicInteger();

    FeedServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(threads);
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            Answer answer = answers.get(exchange.getRequestURI().getPath());
            try (exchange) {
                if (answer == null) {
                    exchange.sendResponseHeaders(404, -1);
                } else {
                    answer.handle(exchange);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                // the client gave up (a cap or a timeout): what the test is about
            }
        });
        server.start();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    int port() {
        return server.getAddress().getPort();
    }

    int requests() {
        return requests.get();
    }

    FeedServer serve(String path, Answer answer) {
        answers.put(path, answer);
        return this;
    }

    FeedServer calendar(String path, String text) {
        return serve(path, exchange -> send(exchange, 200, "text/calendar; charset=utf-8", text));
    }

    FeedServer redirect(String path, String location) {
        return serve(path, exchange -> {
            exchange.getResponseHeaders().add("Location", location);
            exchange.sendResponseHeaders(302, -1);
        });
    }

    static void send(HttpExchange exchange, int status, String type, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
