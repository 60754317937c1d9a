package dev.ringzero.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The one place that decides where the real services of the tests come from: the local
 * PostgreSQL server (CI here: 127.0.0.1:5432, trust auth) and RingZero's own Mosquitto
 * (mqtt-broker/, dynamic security) started on its own port. Each test JVM gets a fresh
 * database and a fresh broker state, so runs do not see each other's leftovers.
 *
 * <p>Settings: {@code RINGZERO_TEST_PG} (JDBC URL of the server's admin database),
 * {@code RINGZERO_TEST_PG_USER}, {@code RINGZERO_TEST_DB}, {@code RINGZERO_TEST_MQTT_PORT}. The broker this
 * fixture starts is stopped when the test JVM exits.
 */
public final class RealServices {

    public static final String DATABASE = env("RINGZERO_TEST_DB", "ringzero_test");
    public static final String MQTT_SERVICE_PASSWORD = "ringzero-test-service";

    private static final String ADMIN_URL = env("RINGZERO_TEST_PG", "jdbc:postgresql://127.0.0.1:5432/postgres");
    private static final String PG_USER = env("RINGZERO_TEST_PG_USER", "postgres");
    private static final int MQTT_PORT = Integer.parseInt(env("RINGZERO_TEST_MQTT_PORT", "18832"));
    private static final int SMTP_PORT = Integer.parseInt(env("RINGZERO_TEST_SMTP_PORT", "18825"));

    private static boolean started;

    private RealServices() {
    }

    public static synchronized void start() {
        if (started) {
            return;
        }
        recreateDatabase();
        startBroker();
        started = true;
    }

    public static String jdbcUrl() {
        return ADMIN_URL.substring(0, ADMIN_URL.lastIndexOf('/') + 1) + DATABASE;
    }

    public static String jdbcUser() {
        return PG_USER;
    }

    public static int mqttPort() {
        return MQTT_PORT;
    }

    public static int smtpPort() {
        return SMTP_PORT;
    }

    public static String mqttUrl() {
        return "tcp://127.0.0.1:" + MQTT_PORT;
    }

    private static void recreateDatabase() {
        try (Connection connection = DriverManager.getConnection(ADMIN_URL, PG_USER, "");
                Statement statement = connection.createStatement()) {
            statement.execute("drop database if exists " + DATABASE + " with (force)");
            statement.execute("create database " + DATABASE);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL is not reachable at " + ADMIN_URL
                    + " — run .ci/run (it starts the services) or set RINGZERO_TEST_PG", e);
        }
    }

    private static void startBroker() {
        Path state = Path.of("target", MQTT_PORT == 18832 ? "mosquitto-test" : "mosquitto-test-" + MQTT_PORT)
                .toAbsolutePath();
        try {
            if (listening(MQTT_PORT)) {
                stopBroker(state);
            }
            if (Files.exists(state)) {
                try (Stream<Path> files = Files.walk(state)) {
                    files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
                }
            }
            ProcessBuilder builder = new ProcessBuilder("bash", "mqtt-broker/start.sh", state.toString(),
                    String.valueOf(MQTT_PORT));
            builder.environment().put("RINGZERO_MQTT_SERVICE_PASSWORD", MQTT_SERVICE_PASSWORD);
            builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT);
            Process process = builder.start();
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("mqtt-broker/start.sh failed; is mosquitto 2 installed?");
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    stopBroker(state);
                } catch (IOException | InterruptedException | IllegalStateException e) {
                    // best effort: the next run stops it through the pid file
                }
            }, "stop-test-broker"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the test broker", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void stopBroker(Path state) throws IOException, InterruptedException {
        Path pid = state.resolve("mosquitto.pid");
        if (Files.exists(pid)) {
            new ProcessBuilder("kill", Files.readString(pid).trim()).start().waitFor();
            for (int i = 0; i < 50 && listening(MQTT_PORT); i++) {
                Thread.sleep(100);
            }
        }
        if (listening(MQTT_PORT)) {
            throw new IllegalStateException("port " + MQTT_PORT + " is taken by another process; "
                    + "set RINGZERO_TEST_MQTT_PORT");
        }
    }

    static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
