package dev.ringzero.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The fault suite in CI (issues 22 and 26): the platform jar the build just made, as a real process,
 * killed with SIGKILL at seeded random moments under load and between a gate's approval and the
 * rover's answer, on both shapes, and (default shape) in the middle of two llm sessions against
 * {@link FakeModel}; see {@link CrashSuite} for what is counted. The seed is printed
 * ({@code -Dfault.seed=N} replays a run's kill moments); longer soaks: {@code benchmarks/crash.sh}.
 *
 * <p>The production shape also restarts Mosquitto and then PostgreSQL under load: a PostgreSQL
 * server of its own ({@link PostgresCluster}: initdb in its data directory, on port
 * {@code fault.pg-port}, 18912), never the machine's, which others use. {@code -Dfault.db-restarts=N}
 * (2: a {@code restart -m fast}, then a stop of 3 to 6 s) and {@code -Dfault.broker-restarts=N} (1)
 * say how often. Ports: {@code fault.http-port} (18900), {@code fault.mqtt-port} (18910),
 * {@code fault.production-http-port} (18901), {@code fault.production-mqtt-port} (18911); data under
 * {@code fault.data-dir} (the temp directory).
 *
 * <p>Needs the platform's exec jar ({@code mvn package} in the root, which bin/test runs first;
 * {@code -Dringzero.jar=…} names another), PostgreSQL's server programs (initdb, pg_ctl: Debian's
 * postgresql package) and Mosquitto with its dynamic-security plugin, as bin/test provides them.
 */
class CrashSuiteTest {

    private static final Path REPO = Path.of("").toAbsolutePath().getParent();

    @Test
    void theDefaultShapeLosesNoAcknowledgedEventSendsNothingTwiceAndNamesEveryCommandAcrossKills() throws Exception {
        Path data = fresh("default");
        CrashSuite.Plan plan = new CrashSuite.Plan("default", jar(), data, port("fault.http-port", 18900),
                environment(port("fault.mqtt-port", 18910)), seed(), 6, 12, 2, 2);

        CrashSuite.Findings findings;
        // and two llm sessions killed mid-way, against a model that takes a second a turn
        try (FakeModel model = FakeModel.start(0, Duration.ofSeconds(1))) {
            findings = new CrashSuite(plan).withSessionKills(2, model).run();
        }

        assertThat(findings.clean()).as(findings.summary() + "\n" + String.join("\n", findings.details())).isTrue();
        assertThat(findings.acknowledged()).as("the load reached the platform").isGreaterThan(100);
        String all = findings.summary() + "\n" + String.join("\n", findings.details());
        assertThat(findings.gateTries()).as(all).isEqualTo(2);
        assertThat(findings.sessionTries()).as(all).isEqualTo(2);
    }

    @Test
    void theProductionShapeLosesNoAcknowledgedEventSendsNothingTwiceAndNamesEveryCommandAcrossKillsAndBrokerAndDatabaseRestarts() throws Exception {
        Path data = fresh("production");
        int mqttPort = port("fault.production-mqtt-port", 18911);
        String database = "ringzero_fault";
        String servicePassword = "fault-service-" + UUID.randomUUID();
        Path brokerState = data.resolve("mosquitto");
        // a PostgreSQL server of the suite's own, which it may restart: never the machine's (5432)
        try (PostgresCluster postgres = PostgresCluster.start(data.resolve("pg"), port("fault.pg-port", 18912))) {
            postgres.createDatabase(database);
            Map<String, String> env = environment(mqttPort);
            env.put("SPRING_PROFILES_ACTIVE", "postgres,mosquitto");
            env.put("RINGZERO_DB_URL", postgres.jdbc(database));
            env.put("RINGZERO_MQTT_SERVICE_PASSWORD", servicePassword);
            try {
                run(Map.of("RINGZERO_MQTT_SERVICE_PASSWORD", servicePassword), "mqtt-broker/start.sh",
                        brokerState.toString(), String.valueOf(mqttPort));
                CrashSuite.Plan plan = new CrashSuite.Plan("production", jar(), data.resolve("platform"),
                        port("fault.production-http-port", 18901), env, seed(), 6, 12, 1, 2);

                // and Mosquitto restarted (SIGTERM, start again on its state) under load, after the kill;
                // then PostgreSQL restarted under load (restart -m fast; stopped for a few seconds)
                int databaseRestarts = Integer.getInteger("fault.db-restarts", 2);
                CrashSuite.Findings findings = new CrashSuite(plan).withBrokerRestarts(Integer.getInteger(
                        "fault.broker-restarts", 1), CrashSuite.mosquittoRestart(REPO, brokerState, mqttPort,
                        servicePassword)).withDatabaseRestarts(databaseRestarts, postgres).run();

                assertThat(findings.clean()).as(findings.summary() + "\n" + String.join("\n", findings.details()))
                        .isTrue();
                assertThat(findings.acknowledged()).as("the load reached the platform").isGreaterThan(50);
                assertThat(findings.databaseRestarts()).isEqualTo(databaseRestarts);
                assertThat(findings.gateTries()).as("two gates killed, one after the database restarts\n"
                        + findings.summary() + "\n" + String.join("\n", findings.details()))
                        .isEqualTo(databaseRestarts > 0 ? 3 : 2);
            } finally {
                run(Map.of(), "mqtt-broker/stop.sh", brokerState.toString());
            }
        }
    }

    private static Path jar() {
        Path jar = Path.of(System.getProperty("ringzero.jar",
                REPO.resolve("target/ringzero-platform-0.1.0-SNAPSHOT-exec.jar").toString()));
        assertThat(jar).as("the platform's exec jar (mvn -DskipTests package in the root, or -Dringzero.jar=...)")
                .exists();
        return jar;
    }

    private static long seed() {
        return Long.getLong("fault.seed", System.nanoTime());
    }

    private static int port(String property, int fallback) {
        return Integer.getInteger(property, fallback);
    }

    private static Map<String, String> environment(int mqttPort) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("RINGZERO_MQTT_PORT", String.valueOf(mqttPort));
        env.put("RINGZERO_ADMIN_PASSWORD", "fault-admin-" + UUID.randomUUID());
        return env;
    }

    /** A data directory of its own for this run, under the build directory's parent temp area. */
    private static Path fresh(String shape) throws IOException {
        Path dir = Path.of(System.getProperty("fault.data-dir", System.getProperty("java.io.tmpdir")),
                "ringzero-fault-" + shape);
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        return Files.createDirectories(dir);
    }

    private static void run(Map<String, String> env, String script, String... args) throws Exception {
        CrashSuite.script(REPO, env, script, args);
    }
}
