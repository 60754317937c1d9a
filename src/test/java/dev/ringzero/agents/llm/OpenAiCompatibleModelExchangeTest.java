package dev.ringzero.agents.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The model client's exchange over real sockets, against a bare HTTP/1.1 server in the test that
 * controls what a model server may do to a connection: a turn is asked and read on the turn's own
 * thread over a kept-alive connection, a connection the server closed while it was idle costs no
 * turn, a server that keeps sending past the reply timeout is cut there, and a server that is not
 * there or answers too late fails the turn saying which.
 */
class OpenAiCompatibleModelExchangeTest {

    /** The server's answer to its n-th request: "hello n". */
    private static final String COMPLETION = """
            {"id":"x","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,
             "finish_reason":"stop","message":{"role":"assistant","content":"hello %d"}}],
             "usage":{"prompt_tokens":7,"completion_tokens":3,"total_tokens":10}}""";

    private final ModelCall call = new ModelCall(List.of(new Message.System("greet"), new Message.User("hi")),
            List.of(), 64);

    private BareServer server;
    private OpenAiCompatibleModel model;

    @AfterEach
    void close() throws IOException {
        if (model != null) {
            model.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void turnsAreAskedOnTheTurnsOwnThreadOverOneKeptAliveConnection() {
        server = new BareServer(false, Duration.ZERO, Duration.ZERO);
        model = modelAt(server.port(), Duration.ofSeconds(5));
        assertThat(model.ask(call)).isEqualTo(new ModelReply.Answered("hello 1", List.of(), 7, 3)); // classes loaded
        long startedBefore = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();

        for (int turn = 2; turn <= 21; turn++) {
            assertThat(model.ask(call)).isEqualTo(new ModelReply.Answered("hello " + turn, List.of(), 7, 3));
        }

        // the JDK's client started a thread per request on two cores (its default asynchronous
        // executor), besides its selector and its writers; this one starts none
        long started = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - startedBefore;
        assertThat(started).as("threads started for 20 turns").isLessThan(5);
        assertThat(server.connections()).isEqualTo(1);
    }

    @Test
    void aConnectionTheServerClosedWhileIdleCostsNoTurn() throws InterruptedException {
        server = new BareServer(true, Duration.ZERO, Duration.ZERO); // closes each connection after its answer, unannounced
        model = modelAt(server.port(), Duration.ofSeconds(5));

        assertThat(model.ask(call)).isEqualTo(new ModelReply.Answered("hello 1", List.of(), 7, 3));
        Thread.sleep(1_500); // idle longer than the pool trusts a connection without checking it
        ModelReply second = model.ask(call);

        assertThat(second).as("the second turn, on a new connection")
                .isEqualTo(new ModelReply.Answered("hello 2", List.of(), 7, 3));
        assertThat(server.connections()).isEqualTo(2);
    }

    @Test
    void aModelServerThatIsNotThereIsUnreachable() throws IOException {
        int port;
        try (ServerSocket nothing = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = nothing.getLocalPort();
        }
        model = modelAt(port, Duration.ofSeconds(5));

        ModelReply reply = model.ask(call);

        assertThat(reply).isInstanceOf(ModelReply.Failed.class);
        assertThat(((ModelReply.Failed) reply).code()).isEqualTo("model_unreachable");
    }

    @Test
    void aReplyLaterThanTheReplyTimeoutEndsTheTurnTimedOut() {
        server = new BareServer(false, Duration.ofMillis(2_500), Duration.ZERO);
        model = modelAt(server.port(), Duration.ofSeconds(1));

        ModelReply reply = model.ask(call);

        assertThat(reply).isEqualTo(new ModelReply.Failed("model_timeout", "the model did not answer within 1 s"));
    }

    @Test
    void aServerThatKeepsSendingIsCutAtTheReplyTimeout() {
        // the socket timeout bounds silence only: a byte every 200 ms would take a minute here
        server = new BareServer(false, Duration.ZERO, Duration.ofMillis(200));
        model = modelAt(server.port(), Duration.ofSeconds(1));
        long started = System.nanoTime();

        ModelReply reply = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> model.ask(call));

        assertThat(reply).isEqualTo(new ModelReply.Failed("model_timeout", "the model did not answer within 1 s"));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void theReplysHeadIsAnnouncedOnTheAskingThreadBeforeItsBodyIsRead() {
        // a byte of the body every 5 ms: the head comes a second before the whole body
        server = new BareServer(false, Duration.ZERO, Duration.ofMillis(5));
        model = modelAt(server.port(), Duration.ofSeconds(30));
        Thread asking = Thread.currentThread();
        long[] headAt = {0};
        Thread[] announcedOn = {null};

        ModelReply reply = model.ask(call, () -> {
            headAt[0] = System.nanoTime();
            announcedOn[0] = Thread.currentThread();
        });
        long readAt = System.nanoTime();

        assertThat(reply).isEqualTo(new ModelReply.Answered("hello 1", List.of(), 7, 3));
        assertThat(announcedOn[0]).isSameAs(asking);
        assertThat(Duration.ofNanos(readAt - headAt[0])).as("the body read after the announcement")
                .isGreaterThan(Duration.ofMillis(300));
    }

    @Test
    void theTimeTheAskingThreadTakesAtTheReplysHeadDoesNotCountAgainstTheServer() {
        // the head after 300 ms, then the body a byte a millisecond (so not read with the head)
        server = new BareServer(false, Duration.ofMillis(300), Duration.ofMillis(1));
        model = modelAt(server.port(), Duration.ofSeconds(1));

        // the server is done within its second; the node takes 900 ms at the head (waiting for a
        // slot), past the second: the exchange, were it cut then, would fail reading the body
        ModelReply reply = model.ask(call, () -> sleep(Duration.ofMillis(900)));

        assertThat(reply).isEqualTo(new ModelReply.Answered("hello 1", List.of(), 7, 3));
    }

    @Test
    void noReplyAnnouncesNoHead() {
        server = new BareServer(false, Duration.ofMillis(2_500), Duration.ZERO);
        model = modelAt(server.port(), Duration.ofSeconds(1));
        AtomicInteger heads = new AtomicInteger();

        ModelReply reply = model.ask(call, heads::incrementAndGet);

        assertThat(reply).isEqualTo(new ModelReply.Failed("model_timeout", "the model did not answer within 1 s"));
        assertThat(heads.get()).isZero();
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static OpenAiCompatibleModel modelAt(int port, Duration replyTimeout) {
        return new OpenAiCompatibleModel(new LlmSettings("http://127.0.0.1:" + port, "m", null, Duration.ofSeconds(2),
                replyTimeout, 0, 0, 4, null));
    }

    /** HTTP/1.1 on a loopback socket: every request answered with {@link #COMPLETION}. */
    private static final class BareServer implements AutoCloseable {

        private final ServerSocket socket;
        private final boolean closeAfterAnswer;
        private final Duration delay;
        /** Zero: the body at once; else a byte of it at a time, this far apart. */
        private final Duration trickle;
        private final AtomicInteger connections = new AtomicInteger();
        private final AtomicInteger requests = new AtomicInteger();

        BareServer(boolean closeAfterAnswer, Duration delay, Duration trickle) {
            this.closeAfterAnswer = closeAfterAnswer;
            this.delay = delay;
            this.trickle = trickle;
            try {
                this.socket = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            Thread acceptor = new Thread(this::accept, "bare-model-server");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        int connections() {
            return connections.get();
        }

        private void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket connection = socket.accept();
                    connections.incrementAndGet();
                    Thread serving = new Thread(() -> serve(connection), "bare-model-connection");
                    serving.setDaemon(true);
                    serving.start();
                } catch (IOException e) {
                    return; // closed
                }
            }
        }

        private void serve(Socket connection) {
            try (connection) {
                InputStream in = new BufferedInputStream(connection.getInputStream());
                OutputStream out = connection.getOutputStream();
                while (readRequest(in)) {
                    Thread.sleep(delay.toMillis());
                    byte[] body = COMPLETION.formatted(requests.incrementAndGet()).getBytes(StandardCharsets.UTF_8);
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                            + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    if (trickle.isZero()) {
                        out.write(body);
                    } else {
                        for (byte b : body) {
                            out.write(b);
                            out.flush();
                            Thread.sleep(trickle.toMillis());
                        }
                    }
                    out.flush();
                    if (closeAfterAnswer) {
                        return;
                    }
                }
            } catch (IOException | InterruptedException | NumberFormatException e) {
                // the client went away (a timed-out turn, mid-request), or the test ended
            }
        }

        /** Reads one request, its body by Content-Length or in chunks; false at the end of the stream. */
        private static boolean readRequest(InputStream in) throws IOException {
            int length = 0;
            boolean chunked = false;
            boolean any = false;
            String line;
            while (!(line = line(in)).isEmpty()) {
                any = true;
                String header = line.toLowerCase(Locale.ROOT);
                if (header.startsWith("content-length:")) {
                    length = Integer.parseInt(header.substring("content-length:".length()).trim());
                } else if (header.startsWith("transfer-encoding:") && header.contains("chunked")) {
                    chunked = true;
                }
            }
            if (!any) {
                return false; // the client closed the connection
            }
            if (!chunked) {
                in.readNBytes(length);
                return true;
            }
            int size;
            while ((size = Integer.parseInt(line(in).split(";")[0].trim(), 16)) > 0) {
                in.readNBytes(size);
                line(in); // the chunk's CRLF
            }
            while (!line(in).isEmpty()) {
                // trailers, up to the blank line that ends the request
            }
            return true;
        }

        private static String line(InputStream in) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) != -1 && b != '\n') {
                if (b != '\r') {
                    bytes.write(b);
                }
            }
            return bytes.toString(StandardCharsets.US_ASCII);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
