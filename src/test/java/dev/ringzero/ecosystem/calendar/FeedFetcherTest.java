package dev.ringzero.ecosystem.calendar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.ringzero.Refusal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a feed over HTTP from a server in the test, and from the operator's calendar directory. */
class FeedFetcherTest {

    private static final long MAX = 1024 * 1024;
    private static final String FEED = ICalendarDaysTest.ics(ICalendarDaysTest.event("a", "Standup",
            "DTSTART:20250324T090000Z", "DURATION:PT15M"));

    @TempDir
    Path root;

    private Path directory;
    private FeedServer server;
    private FeedFetcher underTest;

    @BeforeEach
    void start() throws IOException {
        directory = Files.createDirectories(root.resolve("calendars"));
        server = new FeedServer();
        underTest = new FeedFetcher(directory, Duration.ofSeconds(10), MAX);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String fetch(String url) {
        return underTest.read(FeedSource.url(url));
    }

    @Test
    void aFeedIsFetchedOverHttp() {
        server.calendar("/alice.ics", FEED);

        assertThat(fetch(server.url("/alice.ics"))).isEqualTo(FEED);
    }

    @Test
    void aRedirectWithinTheSameSchemeIsFollowed() {
        server.calendar("/alice.ics", FEED).redirect("/old.ics", "/alice.ics");

        assertThat(fetch(server.url("/old.ics"))).isEqualTo(FEED);
    }

    @Test
    void aRedirectToAnotherSchemeIsNotFollowed() {
        server.redirect("/moved.ics", "https://127.0.0.1:" + server.port() + "/alice.ics");

        assertThatExceptionOfType(FeedProblem.class).isThrownBy(() -> fetch(server.url("/moved.ics")))
                .satisfies(problem -> assertThat(problem.slug()).isEqualTo(FeedProblem.UNREACHABLE))
                .withMessageContaining("redirects are followed only within http");
        assertThat(server.requests()).as("nothing asked at the https address").isEqualTo(1);
    }

    @Test
    void endlessRedirectsEndAfterThree() {
        server.redirect("/loop.ics", "/loop.ics");

        assertThatExceptionOfType(FeedProblem.class).isThrownBy(() -> fetch(server.url("/loop.ics")))
                .withMessageContaining("redirects more than 3 times");
        assertThat(server.requests()).isEqualTo(FeedFetcher.MAX_REDIRECTS + 1);
    }

    @Test
    void aFeedOfExactlyTheCapIsReadAndOneByteMoreIsRefusedDeclaredOrNot() {
        String atTheCap = "x".repeat((int) MAX);
        server.calendar("/full.ics", atTheCap)
                .calendar("/declared.ics", atTheCap + "x")
                .serve("/chunked.ics", exchange -> {
                    exchange.sendResponseHeaders(200, 0);
                    try (OutputStream out = exchange.getResponseBody()) {
                        for (int i = 0; i < 64; i++) {
                            out.write(new byte[(int) MAX / 32]);
                        }
                    }
                });

        assertThat(fetch(server.url("/full.ics"))).hasSize((int) MAX);
        for (String path : new String[] {"/declared.ics", "/chunked.ics"}) {
            assertThatExceptionOfType(FeedProblem.class).as(path).isThrownBy(() -> fetch(server.url(path)))
                    .satisfies(problem -> assertThat(problem.slug()).isEqualTo(FeedProblem.TOO_LARGE))
                    .withMessageContaining("larger than 1 MiB");
        }
    }

    @Test
    void anErrorAnswerNamesItsStatusAndTheHostButNotTheSecretPath() {
        assertThatExceptionOfType(FeedProblem.class)
                .isThrownBy(() -> fetch(server.url("/private/s3cret-token/basic.ics?key=hunter2")))
                .withMessage("127.0.0.1:" + server.port() + " answered HTTP 404 instead of the calendar")
                .withMessageNotContaining("s3cret").withMessageNotContaining("hunter2");
    }

    @Test
    void aServerThatDoesNotAnswerInTimeIsGivenUpOn() {
        FeedFetcher impatient = new FeedFetcher(directory, Duration.ofSeconds(1), MAX);
        server.serve("/slow.ics", exchange -> Thread.sleep(30_000))
                .serve("/drip.ics", exchange -> {
                    exchange.sendResponseHeaders(200, 0);
                    OutputStream out = exchange.getResponseBody();
                    for (int i = 0; i < 300; i++) {
                        out.write("BEGIN:VCALENDAR\r\n".getBytes());
                        out.flush();
                        Thread.sleep(100);
                    }
                });

        assertThatExceptionOfType(FeedProblem.class)
                .isThrownBy(() -> impatient.read(FeedSource.url(server.url("/slow.ics"))))
                .withMessageContaining("did not answer within 1 s");
        assertThatExceptionOfType(FeedProblem.class)
                .isThrownBy(() -> impatient.read(FeedSource.url(server.url("/drip.ics"))))
                .withMessageContaining("did not send the calendar within 2 s");
    }

    @Test
    void aHostThatRefusesTheConnectionIsNamed() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }

        assertThatExceptionOfType(FeedProblem.class).isThrownBy(() -> fetch("http://127.0.0.1:" + closed + "/a.ics"))
                .withMessage("could not connect to 127.0.0.1:" + closed);
    }

    @Test
    void onlyHttpAndHttpsAddressesWithoutCredentialsAreAccepted() {
        for (String url : new String[] {"ftp://example.org/a.ics", "file:///etc/passwd", "webcal://example.org/a.ics",
            "https://user:secret@example.org/a.ics", "example.org/a.ics", "mailto:a@example.org", "http://"}) {
            assertThatExceptionOfType(Refusal.class).as(url).isThrownBy(() -> FeedSource.url(url))
                    .satisfies(refusal -> assertThat(refusal.slug()).isEqualTo("invalid-calendar-url"));
        }
        assertThat(FeedSource.url("https://Example.org/a.ics?token=x").uri()).isEqualTo(
                URI.create("https://Example.org/a.ics?token=x"));
    }

    @Test
    void aFileInsideTheDirectoryIsRead() throws IOException {
        Files.createDirectories(directory.resolve("team"));
        Files.writeString(directory.resolve("team/alice.ics"), FEED);

        assertThat(underTest.read(underTest.file("team/alice.ics"))).isEqualTo(FEED);
    }

    @Test
    void aFileNameThatLeavesTheDirectoryIsRefusedBeforeAnythingIsRead() throws IOException {
        Files.writeString(root.resolve("outside.ics"), FEED);

        for (String name : new String[] {"../outside.ics", "team/../../outside.ics", "/etc/passwd",
            directory.resolve("../outside.ics").toString(), "C:\\calendars\\a.ics", "..", "./a.ics", "a//b.ics",
            "a.ics\u0000", "~/a.ics"}) {
            assertThatExceptionOfType(Refusal.class).as(name).isThrownBy(() -> underTest.file(name))
                    .satisfies(refusal -> assertThat(refusal.slug()).isEqualTo("invalid-calendar-file"));
        }
    }

    @Test
    void aSymbolicLinkOutOfTheDirectoryIsNotFollowed() throws IOException {
        Files.writeString(root.resolve("secret.txt"), FEED);
        Files.createSymbolicLink(directory.resolve("link.ics"), root.resolve("secret.txt"));
        Files.createSymbolicLink(directory.resolve("out"), root);

        for (String name : new String[] {"link.ics", "out/secret.txt"}) {
            FeedSource.File file = underTest.file(name);
            assertThatExceptionOfType(FeedProblem.class).as(name).isThrownBy(() -> underTest.read(file))
                    .satisfies(problem -> assertThat(problem.slug()).isEqualTo("invalid-calendar-file"))
                    .withMessageContaining("leads outside");
        }
    }

    @Test
    void aMissingOrTooLargeFileIsNamed() throws IOException {
        Files.writeString(directory.resolve("big.ics"), "x".repeat((int) MAX + 1));

        assertThatExceptionOfType(FeedProblem.class).isThrownBy(() -> underTest.read(underTest.file("none.ics")))
                .withMessage("there is no file 'none.ics' in the platform's calendar directory");
        assertThatExceptionOfType(FeedProblem.class).isThrownBy(() -> underTest.read(underTest.file("big.ics")))
                .satisfies(problem -> assertThat(problem.slug()).isEqualTo(FeedProblem.TOO_LARGE));
    }

    @Test
    void withoutTheDirectoryAFileFeedSaysTheOperatorHasNotSetItUp() {
        FeedFetcher noDirectory = new FeedFetcher(root.resolve("missing"), Duration.ofSeconds(1), MAX);

        assertThatExceptionOfType(FeedProblem.class).isThrownBy(() -> noDirectory.read(noDirectory.file("a.ics")))
                .withMessageContaining("has no calendar directory");
    }
}
