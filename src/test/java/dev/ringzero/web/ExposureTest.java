package dev.ringzero.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ringzero.support.Api;
import dev.ringzero.support.PlatformTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/** What the platform tells a stranger and another owner (issue 23, item 4): as little as it can. */
class ExposureTest extends PlatformTest {

    @LocalServerPort
    int port;

    @Test
    void strangersGetTheProbeButNoDetailsOrMetrics() {
        Api anonymous = Api.at(port);
        var probe = anonymous.get("/actuator/health");

        assertThat(probe.status()).isEqualTo(200);
        assertThat(probe.json().path("status").asText()).isEqualTo("UP");
        assertThat(probe.json().has("components")).as("no details for strangers").isFalse();
        for (String path : new String[] {"/actuator/prometheus", "/actuator/metrics",
                "/actuator/metrics/jvm.memory.used", "/actuator/info"}) {
            var refused = anonymous.get(path);
            assertThat(refused.status()).as(path).isEqualTo(401);
            assertThat(refused.isProblem()).as(path).isTrue();
        }
        Api owner = Api.at(port).newOwner("nosy");
        assertThat(owner.get("/actuator/prometheus").status()).as("an owner's token is no admin login")
                .isEqualTo(401);
    }

    @Test
    void theAdministratorReadsDetailsAndMetrics() {
        Api admin = Api.at(port).basic("admin", ADMIN_PASSWORD);

        var details = admin.get("/actuator/health");
        assertThat(details.status()).isEqualTo(200);
        assertThat(details.json().path("components").has("db")).isTrue();
        // a node of a cluster names the partitions it takes, each session connected
        var partitions = details.json().at("/components/mqtt/details/partitions");
        assertThat(partitions.size()).as(details.body()).isPositive();
        partitions.forEach(connected -> assertThat(connected.asBoolean()).as(details.body()).isTrue());
        // the Prometheus scrape is off in tests (Spring Boot disables exporters there); metrics are on
        assertThat(admin.get("/actuator/metrics").status()).isEqualTo(200);
        assertThat(Api.at(port).basic("admin", "wrong-password").get("/actuator/metrics").status())
                .isEqualTo(401);
    }

    @Test
    void wrongPasswordsNeverLockTheAdministratorOut() {
        Api stranger = Api.at(port).basic("admin", "guess");
        for (int i = 0; i < 12; i++) {
            assertThat(stranger.post("/api/v1/admin/service-tokens", "{\"role\":\"gateway\"}").status()).isEqualTo(401);
        }

        var rightAtOnce = Api.at(port).basic("admin", ADMIN_PASSWORD).post("/api/v1/admin/service-tokens",
                "{\"role\":\"gateway\"}");
        assertThat(rightAtOnce.status()).as(rightAtOnce.body()).isEqualTo(201);
    }

    @Test
    void apiAnswersAreNeitherSniffedNorCached() {
        Api owner = Api.at(port).newOwner("careful");
        var headers = owner.headers("/api/v1/gadgets");

        assertThat(headers.firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(headers.firstValue("Cache-Control")).hasValue("no-store");
    }
}
