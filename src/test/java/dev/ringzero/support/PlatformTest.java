package dev.ringzero.support;

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
        RealServices.start();
        registry.add("spring.datasource.url", RealServices::jdbcUrl);
        registry.add("spring.datasource.username", RealServices::jdbcUser);
        registry.add("spring.datasource.password", () -> "");
        registry.add("ringzero.mqtt.port", RealServices::mqttPort);
        registry.add("ringzero.mqtt.service-password", () -> RealServices.MQTT_SERVICE_PASSWORD);
        registry.add("RINGZERO_ADMIN_PASSWORD", () -> ADMIN_PASSWORD);
        registry.add("camunda.bpm.job-execution.wait-time-in-millis", () -> 200);
        // a node of a cluster (issue 24), alone unless a test starts a second node on the same
        // database and broker: every gadget message goes through the partitions' sessions, answers
        // through the shared subscription, the speaker floor and the leases through the database
        registry.add("ringzero.cluster.enabled", () -> true);
        // the postgres profile rehearses 3,000 events before healthy; rehearsal.RehearsalTest
        // rehearses on its own, and every other test needs no warm JIT
        registry.add("ringzero.rehearsal.events", () -> 0);
        // every test calls from 127.0.0.1, and many send wrong credentials on purpose: the
        // per-address login throttle has its own tests (web.LoginThrottleTest)
        registry.add("ringzero.logins.max-failures", () -> 1_000_000);
        // background sound goes stale after 4 s here (30 s in production) so tests need not wait
        registry.add("ringzero.speaker.stale-after", () -> "PT4S");
        // {"file": …} calendar feeds are names in this directory (ecosystem.calendar.CalendarApiTest)
        registry.add("ringzero.calendar.file-dir", () -> java.nio.file.Path.of("target", "test-calendars")
                .toAbsolutePath().toString());
        // email.send goes to the in-process SMTP server a test starts there (GreenMail)
        registry.add("spring.mail.host", () -> "127.0.0.1");
        registry.add("spring.mail.port", RealServices::smtpPort);
        // llm runs talk to an OpenAI-compatible server inside the test JVM, over real HTTP (ScriptedModel)
        ScriptedModel.start();
        registry.add("ringzero.llm.base-url", ScriptedModel::baseUrl);
        registry.add("ringzero.llm.model", () -> ScriptedModel.MODEL);
        registry.add("ringzero.llm.reply-timeout", () -> "PT3S");
        registry.add("ringzero.llm.workers", () -> 4);
    }
}
