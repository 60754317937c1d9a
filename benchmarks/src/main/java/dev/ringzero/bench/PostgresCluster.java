package dev.ringzero.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server of the fault suite's own, which it may stop and restart under load: a fresh
 * cluster ({@code initdb}) in a directory of its own, on a port of its own, as
 * {@code benchmarks/run.sh --pg own} sets one up (autovacuum on, every 10 s). The machine's server
 * (5432) is never touched: other suites and other people use it.
 *
 * <p>Debian keeps the server's programs out of {@code PATH}, under
 * {@code /usr/lib/postgresql/<version>/bin} (the newest is taken); elsewhere {@code initdb} is on
 * it. They refuse to run as root, so a root JVM runs them as the {@code postgres} user
 * ({@code runuser}), and the cluster's directory belongs to that user.
 */
final class PostgresCluster implements AutoCloseable {

    private final Path bin;
    private final Path data;
    private final int port;
    private final boolean asPostgres;

    private PostgresCluster(Path bin, Path data, int port) {
        this.bin = bin;
        this.data = data;
        this.port = port;
        this.asPostgres = "root".equals(System.getProperty("user.name"));
    }

    /** initdb into {@code data} (emptied first) and start the server on 127.0.0.1:{@code port}. */
    static PostgresCluster start(Path data, int port) throws IOException, InterruptedException {
        PostgresCluster cluster = new PostgresCluster(programs(), data, port);
        cluster.init();
        cluster.pgCtl("start", "-l", data.resolve("server.log").toString());
        return cluster;
    }

    /** Where {@code initdb} and {@code pg_ctl} are; fails with what to install if nowhere. */
    static Path programs() throws IOException {
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                var newest = versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                        .max(Comparator.comparingInt(b -> major(b.getParent().getFileName().toString())));
                if (newest.isPresent()) {
                    return newest.get();
                }
            }
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "initdb"))) {
                return Path.of(dir);
            }
        }
        throw new IllegalStateException("no PostgreSQL server programs (initdb, pg_ctl) under /usr/lib/postgresql/*/bin "
                + "or on PATH: install the postgresql package (bin/test does)");
    }

    private static int major(String version) {
        try {
            return Integer.parseInt(version.replaceAll("\\..*", ""));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private void init() throws IOException, InterruptedException {
        if (Files.exists(data)) {
            try (Stream<Path> all = Files.walk(data)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Files.createDirectories(data);
        if (asPostgres) {
            UserPrincipal postgres = data.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
            Files.setOwner(data, postgres);
        }
        run(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres", "-A", "trust",
                "-E", "UTF8", "--no-sync"), Duration.ofMinutes(2));
        // the same settings as benchmarks/run.sh --pg own: the engine's runtime tables are queues
        // (a row inserted and deleted per run) and need autovacuum; at PostgreSQL's default naptime,
        // since every round makes every connection re-plan what it vacuumed (docs/benchmarks.md)
        Files.writeString(data.resolve("postgresql.conf"), String.join("\n",
                "listen_addresses = '127.0.0.1'",
                "port = " + port,
                "unix_socket_directories = '" + data + "'",
                "autovacuum = on",
                "autovacuum_naptime = 1min",
                ""), java.nio.file.StandardOpenOption.APPEND);
    }

    int port() {
        return port;
    }

    String jdbc(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    void createDatabase(String name) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbc("postgres"), "postgres", "");
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
    }

    /**
     * {@code pg_ctl restart -m fast}: every connection is ended (the platform's pooled ones see
     * "terminating connection due to administrator command"), a checkpoint, and the server is back
     * within about a second.
     */
    void restartFast() throws IOException, InterruptedException {
        pgCtl("restart", "-m", "fast", "-l", data.resolve("server.log").toString());
    }

    /** Stopped ({@code -m fast}); until {@link #startAgain} every connection attempt is refused. */
    void stop() throws IOException, InterruptedException {
        pgCtl("stop", "-m", "fast");
    }

    void startAgain() throws IOException, InterruptedException {
        pgCtl("start", "-l", data.resolve("server.log").toString());
    }

    /** {@code pg_ctl ... -w}: returns once the server accepts connections (or has stopped). */
    private void pgCtl(String action, String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-w",
                "-t", "60"));
        command.add(action);
        command.addAll(List.of(options));
        run(command, Duration.ofSeconds(90));
    }

    private void run(List<String> command, Duration timeout) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        // pg_ctl start leaves the server holding its stdout: not a pipe the JVM would wait on
        Process process = new ProcessBuilder(full).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(data.resolveSibling(data.getFileName() + "-ctl.log")
                        .toFile())).start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue() + "; see "
                    + data.resolveSibling(data.getFileName() + "-ctl.log"));
        }
    }

    /** Stops the server (immediately: nothing of it is kept) if it runs. */
    @Override
    public void close() throws IOException, InterruptedException {
        if (Files.exists(data.resolve("postmaster.pid"))) {
            pgCtl("stop", "-m", "immediate");
        }
    }
}
