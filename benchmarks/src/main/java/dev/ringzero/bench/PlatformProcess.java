package dev.ringzero.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The platform as a real process of its own ({@code java -jar}), in its own working directory
 * (the default shape keeps its H2 file and broker state under {@code ./data} there), started
 * again with the same command line and environment after a kill, as a supervisor would.
 */
final class PlatformProcess implements AutoCloseable {

    private final List<String> command;
    private final Map<String, String> environment;
    private final Path directory;
    private final Path log;
    private final int httpPort;
    private Process process;
    private int starts;

    PlatformProcess(Path jar, Path directory, int httpPort, Map<String, String> environment) {
        this.command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                "-XX:TieredStopAtLevel=1", "-jar", jar.toAbsolutePath().toString());
        this.environment = new LinkedHashMap<>(environment);
        this.environment.put("PORT", String.valueOf(httpPort));
        this.directory = directory;
        this.log = directory.resolve("platform.log");
        this.httpPort = httpPort;
    }

    String baseUrl() {
        return "http://127.0.0.1:" + httpPort;
    }

    Path log() {
        return log;
    }

    long pid() {
        return process.pid();
    }

    /** Starts the process and returns once {@code /actuator/health} says UP. */
    Duration start(Duration timeout) throws IOException, InterruptedException {
        Files.createDirectories(directory);
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).directory(directory.toFile())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        Files.writeString(log, "----- start " + (++starts) + "\n", java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        long t0 = System.nanoTime();
        process = builder.start();
        Rest rest = Rest.at(baseUrl());
        long deadline = t0 + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the platform exited with " + process.exitValue() + "; see " + log);
            }
            try {
                Rest.Response health = rest.get("/actuator/health");
                if (health.status() == 200 && health.body().contains("\"status\":\"UP\"")) {
                    return Duration.ofNanos(System.nanoTime() - t0);
                }
            } catch (IllegalStateException notListening) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("the platform is not healthy after " + timeout + "; see " + log);
    }

    /** SIGKILL: the JVM gets no chance to do anything (Process#destroyForcibly on Linux). */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** SIGTERM, and how long the process took to exit (or null if it did not within the timeout). */
    Duration stop(Duration timeout) throws InterruptedException {
        long t0 = System.nanoTime();
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor();
            return null;
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    int exitValue() {
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            kill();
        }
    }
}
