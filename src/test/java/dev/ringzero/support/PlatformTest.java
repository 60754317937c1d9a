package dev.ringzero.support;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of every integration test: the whole platform on its production shape (PostgreSQL +
 * Mosquitto), one Spring context shared by all subclasses. Subclasses must not add context
 * configuration of their own, so the context is started once per test run.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles({"postgres", "mosquitto"})
public abstract class PlatformTest {

    public static final String ADMIN_PASSWORD = "admin-test-password";

    @DynamicPropertySource
    static void realServices(DynamicPropertyRegistry registry) {
        properties().forEach((name, value) -> registry.add(name, value));
    }

    /**
     * What every node of the tests is started with: the real services and the test settings below.
     * {@link SecondNode} starts a second platform from the same map, so both nodes behave alike.
     */
    static Map<String, Supplier<Object>> properties() {
        RealServices.start();
        Map<String, Supplier<Object>> properties = new LinkedHashMap<>();
        properties.put("spring.datasource.url", RealServices::jdbcUrl);
        properties.put("spring.datasource.username", RealServices::jdbcUser);
        properties.put("spring.datasource.password", () -> "");
        properties.put("ringzero.mqtt.port", RealServices::mqttPort);
        properties.put("ringzero.mqtt.service-password", () -> RealServices.MQTT_SERVICE_PASSWORD);
        properties.put("RINGZERO_ADMIN_PASSWORD", () -> ADMIN_PASSWORD);
        properties.put("camunda.bpm.job-execution.wait-time-in-millis", () -> 200);
        // a node of a cluster (issue 24), alone unless a test starts a second node (SecondNode) on
        // the same database and broker: every gadget message goes through the partitions' sessions,
        // answers through the shared subscription, the speaker floor and the leases through the database
        properties.put("ringzero.cluster.enabled", () -> true);
        // the postgres profile rehearses 3,000 events and 2,500 llm sessions before healthy;
        // rehearsal.RehearsalTest rehearses on its own, and every other test needs no warm JIT
        properties.put("ringzero.rehearsal.events", () -> 0);
        properties.put("ringzero.rehearsal.llm-sessions", () -> 0);
        // every test calls from 127.0.0.1, and many send wrong credentials on purpose: the
        // per-address login throttle has its own tests (web.LoginThrottleTest)
        properties.put("ringzero.logins.max-failures", () -> 1_000_000);
        // background sound goes stale after 4 s here (30 s in production) so tests need not wait
        properties.put("ringzero.speaker.stale-after", () -> "PT4S");
        // {"file": …} calendar feeds are names in this directory (ecosystem.calendar.CalendarApiTest)
        properties.put("ringzero.calendar.file-dir", () -> java.nio.file.Path.of("target", "test-calendars")
                .toAbsolutePath().toString());
        // email.send goes to the in-process SMTP server a test starts there (GreenMail)
        properties.put("spring.mail.host", () -> "127.0.0.1");
        properties.put("spring.mail.port", RealServices::smtpPort);
        // llm runs talk to an OpenAI-compatible server inside the test JVM, over real HTTP (ScriptedModel)
        ScriptedModel.start();
        properties.put("ringzero.llm.base-url", ScriptedModel::baseUrl);
        properties.put("ringzero.llm.model", () -> ScriptedModel.MODEL);
        properties.put("ringzero.llm.reply-timeout", () -> "PT3S");
        properties.put("ringzero.llm.workers", () -> 4);
        return properties;
    }
}
