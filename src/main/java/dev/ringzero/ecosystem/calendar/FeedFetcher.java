package dev.ringzero.ecosystem.calendar;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

import javax.net.ssl.SSLException;

import dev.ringzero.Refusal;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Reads a feed's text, bounded in size and time. Over HTTP(S): the JDK client, a connect timeout
 * and a response timeout of {@code ringzero.calendar.timeout} each and the whole transfer within
 * twice that, at most {@code ringzero.calendar.max-bytes}, and at most {@value #MAX_REDIRECTS}
 * redirects, each within the same scheme (the client follows none by itself). From a file: only
 * inside {@code ringzero.calendar.file-dir}, checked again at every read (a symbolic link may have
 * changed). Messages name the host, never the address's path or query, which may be its secret.
 */
@Component
class FeedFetcher {

    static final int MAX_REDIRECTS = 3;
    private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*");
    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);

    private final Path directory;
    private final Duration timeout;
    private final long maxBytes;
    private final HttpClient http;

    FeedFetcher(@Value("${ringzero.calendar.file-dir:./data/calendars}") Path directory,
            @Value("${ringzero.calendar.timeout:PT5S}") Duration timeout,
            @Value("${ringzero.calendar.max-bytes:1048576}") long maxBytes) {
        this.directory = directory.toAbsolutePath().normalize();
        this.timeout = timeout;
        this.maxBytes = maxBytes;
        this.http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).connectTimeout(timeout).build();
    }

    /** A file name as stored: relative, inside the directory, no {@code ..}; refused otherwise. */
    FeedSource.File file(String name) {
        String text = name.strip();
        if (text.startsWith("/") || text.contains("\\") || text.matches("^[A-Za-z]:.*")) {
            throw Refusal.invalid("invalid-calendar-file", "'file' must be a name relative to the platform's "
                    + "calendar directory (ringzero.calendar.file-dir), not an absolute path");
        }
        if (text.length() > 255 || !FILE_NAME.matcher(text).matches()) {
            throw Refusal.invalid("invalid-calendar-file", "'file' must be a name of letters, digits, '.', '_', "
                    + "'-' and '/' (at most 255 characters), relative to the platform's calendar directory");
        }
        for (String segment : text.split("/")) {
            if (segment.equals("..") || segment.equals(".")) {
                throw Refusal.invalid("invalid-calendar-file", "'file' must stay inside the platform's calendar "
                        + "directory: no '.' or '..' in it");
            }
        }
        if (!directory.resolve(text).normalize().startsWith(directory)) {
            throw Refusal.invalid("invalid-calendar-file", "'file' must stay inside the platform's calendar directory");
        }
        return new FeedSource.File(text);
    }

    String read(FeedSource source) {
        if (source instanceof FeedSource.Url url) {
            return fetch(url);
        }
        return readFile(((FeedSource.File) source).name());
    }

    private String readFile(String name) {
        Path path = directory.resolve(name).normalize();
        Path real;
        Path realDirectory;
        try {
            realDirectory = directory.toRealPath();
        } catch (IOException e) {
            throw new FeedProblem(FeedProblem.UNREACHABLE, "the platform has no calendar directory "
                    + "(ringzero.calendar.file-dir): its operator has not set one up");
        }
        try {
            real = path.toRealPath();
        } catch (NoSuchFileException e) {
            throw new FeedProblem(FeedProblem.UNREACHABLE, "there is no file '" + name
                    + "' in the platform's calendar directory");
        } catch (IOException e) {
            throw new FeedProblem(FeedProblem.UNREACHABLE, "the calendar file '" + name + "' cannot be read");
        }
        if (!path.startsWith(directory) || !real.startsWith(realDirectory)) {
            throw new FeedProblem("invalid-calendar-file", "the calendar file '" + name
                    + "' leads outside the platform's calendar directory (a symbolic link); it is not read");
        }
        if (!Files.isRegularFile(real)) {
            throw new FeedProblem(FeedProblem.UNREACHABLE, "'" + name + "' in the platform's calendar directory "
                    + "is not a file");
        }
        try (InputStream in = Files.newInputStream(real)) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (bytes.length > maxBytes) {
                throw tooLarge();
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new FeedProblem(FeedProblem.UNREACHABLE, "the calendar file '" + name + "' cannot be read");
        }
    }

    private String fetch(FeedSource.Url url) {
        URI current = url.uri();
        for (int hop = 0;; hop++) {
            HttpResponse<byte[]> response = send(current, url.where());
            int status = response.statusCode();
            if (status / 100 == 2) {
                return new String(response.body(), StandardCharsets.UTF_8);
            }
            if (!REDIRECTS.contains(status)) {
                throw new FeedProblem(FeedProblem.UNREACHABLE, url.where() + " answered HTTP " + status
                        + " instead of the calendar");
            }
            String location = response.headers().firstValue("Location").orElse("");
            URI next;
            try {
                next = current.resolve(new URI(location));
            } catch (java.net.URISyntaxException | IllegalArgumentException e) {
                throw new FeedProblem(FeedProblem.UNREACHABLE, url.where() + " redirects to an address that is not "
                        + "valid");
            }
            String scheme = current.getScheme().toLowerCase(Locale.ROOT);
            if (location.isEmpty() || next.getScheme() == null || !next.getScheme().equalsIgnoreCase(scheme)
                    || next.getHost() == null || next.getRawUserInfo() != null) {
                throw new FeedProblem(FeedProblem.UNREACHABLE, url.where() + " redirects elsewhere than to another "
                        + scheme + " address; redirects are followed only within " + scheme
                        + ": configure the address it redirects to");
            }
            if (hop >= MAX_REDIRECTS) {
                throw new FeedProblem(FeedProblem.UNREACHABLE, url.where() + " redirects more than " + MAX_REDIRECTS
                        + " times");
            }
            current = next;
        }
    }

    private HttpResponse<byte[]> send(URI uri, String where) {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout)
                .header("Accept", "text/calendar, text/plain;q=0.9, */*;q=0.5")
                .header("User-Agent", "RingZero-calendar/1")
                .GET().build();
        CompletableFuture<HttpResponse<byte[]>> exchange = http.sendAsync(request, info -> info.statusCode() / 100 == 2
                ? new CappedBody(maxBytes, info.headers().firstValueAsLong("Content-Length").orElse(0) > maxBytes)
                : HttpResponse.BodySubscribers.replacing(null));
        try {
            return exchange.get(timeout.multipliedBy(2).toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new FeedProblem(FeedProblem.UNREACHABLE, where + " did not send the calendar within "
                    + seconds(timeout.multipliedBy(2)));
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            throw new FeedProblem(FeedProblem.UNREACHABLE, "fetching the calendar from " + where + " was interrupted");
        } catch (ExecutionException e) {
            throw failure(e.getCause(), where);
        }
    }

    private FeedProblem failure(Throwable failure, String where) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof TooLarge) {
                return tooLarge();
            }
            if (cause instanceof HttpConnectTimeoutException) {
                return new FeedProblem(FeedProblem.UNREACHABLE, where + " did not accept a connection within "
                        + seconds(timeout));
            }
            if (cause instanceof HttpTimeoutException) {
                return new FeedProblem(FeedProblem.UNREACHABLE, where + " did not answer within " + seconds(timeout));
            }
            if (cause instanceof UnresolvedAddressException || cause instanceof java.net.UnknownHostException) {
                return new FeedProblem(FeedProblem.UNREACHABLE, "the host " + where + " is unknown");
            }
            if (cause instanceof SSLException) {
                return new FeedProblem(FeedProblem.UNREACHABLE, "the TLS handshake with " + where + " failed");
            }
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException) {
                return new FeedProblem(FeedProblem.UNREACHABLE, "could not connect to " + where);
            }
        }
        return new FeedProblem(FeedProblem.UNREACHABLE, "could not fetch the calendar from " + where + " ("
                + failure.getClass().getSimpleName() + ")");
    }

    private FeedProblem tooLarge() {
        return new FeedProblem(FeedProblem.TOO_LARGE, "the feed is larger than " + size(maxBytes)
                + " (ringzero.calendar.max-bytes), so it is not read");
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    private static String size(long bytes) {
        return bytes % (1024 * 1024) == 0 ? bytes / (1024 * 1024) + " MiB"
                : bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
    }

    private static final class TooLarge extends IOException {

        TooLarge() {
            super("the body is larger than allowed");
        }
    }

    /** Collects a body up to a limit and gives up at the first byte beyond it, closing the exchange. */
    private static final class CappedBody implements HttpResponse.BodySubscriber<byte[]> {

        private final long max;
        private final boolean declaredTooLarge;
        private final CompletableFuture<byte[]> body = new CompletableFuture<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private Flow.Subscription subscription;

        CappedBody(long max, boolean declaredTooLarge) {
            this.max = max;
            this.declaredTooLarge = declaredTooLarge;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            if (declaredTooLarge) {
                subscription.cancel();
                body.completeExceptionally(new TooLarge());
            } else {
                subscription.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (body.isDone()) {
                return;
            }
            for (ByteBuffer item : items) {
                if (bytes.size() + (long) item.remaining() > max) {
                    subscription.cancel();
                    body.completeExceptionally(new TooLarge());
                    return;
                }
                byte[] chunk = new byte[item.remaining()];
                item.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(Throwable failure) {
            body.completeExceptionally(failure);
        }

        @Override
        public void onComplete() {
            body.complete(bytes.toByteArray());
        }
    }
}
