package dev.ringzero.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import dev.ringzero.support.Api;
import dev.ringzero.support.PlatformTest;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * What the automations page stands on, without a browser: its files are served to anyone with
 * strict headers, signing in with an id and password gives a token, and the routes it reads
 * carry what it shows (quiet hours, a run's actions, a gate's Tasklist task).
 */
class AutomationsPageTest extends PlatformTest {

    @LocalServerPort
    int port;

    @Test
    void thePageIsServedToAnyoneWithAStrictContentSecurityPolicy() {
        Api anonymous = Api.at(port);

        Api.Response page = anonymous.get("/app/");
        Api.Response script = anonymous.get("/app/app.js");

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.body()).contains("<title>RingZero · automations</title>", "id=\"sign-in\"");
        assertThat(anonymous.headers("/app/").firstValue("Content-Security-Policy")).hasValueSatisfying(
                policy -> assertThat(policy).contains("default-src 'self'", "frame-ancestors 'none'"));
        assertThat(script.status()).isEqualTo(200);
        assertThat(script.contentType()).contains("javascript");
        assertThat(anonymous.raw("GET", "/app", null, null).status()).as("/app leads to /app/").isIn(200, 302);
    }

    @Test
    void signingInWithIdAndPasswordGivesATokenAndSigningOutEndsIt() {
        Api alice = Api.at(port).newOwner("alice");
        String password = "password-" + alice.accountId();

        Api.Response signedIn = Api.at(port).post("/api/v1/sign-in",
                "{\"id\":\"" + alice.accountId() + "\",\"password\":\"" + password + "\"}");
        assertThat(signedIn.status()).as(signedIn.body()).isEqualTo(200);
        assertThat(signedIn.json().path("role").asText()).isEqualTo("owner");
        Api session = Api.at(port).bearer(signedIn.json().path("token").asText());
        assertThat(session.get("/api/v1/gadgets").status()).isEqualTo(200);

        assertThat(session.post("/api/v1/sign-out", null).status()).isEqualTo(204);
        assertThat(session.get("/api/v1/gadgets").status()).isEqualTo(401);
        assertThat(alice.get("/api/v1/gadgets").status()).as("other tokens of the account stay").isEqualTo(200);
    }

    @Test
    void aWrongPasswordAndAnUnknownAccountLookTheSame() {
        Api alice = Api.at(port).newOwner("alice");

        Api.Response wrong = Api.at(port).post("/api/v1/sign-in",
                "{\"id\":\"" + alice.accountId() + "\",\"password\":\"not-the-password\"}");
        Api.Response unknown = Api.at(port).post("/api/v1/sign-in",
                "{\"id\":\"nobody-here\",\"password\":\"not-the-password\"}");
        Api.Response empty = Api.at(port).post("/api/v1/sign-in", "{\"id\":\"\",\"password\":\"\"}");

        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.isProblem()).isTrue();
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(unknown.json().path("detail").asText()).isEqualTo(wrong.json().path("detail").asText());
        assertThat(empty.status()).isEqualTo(400);
    }

    @Test
    void theAdministratorDoesNotSignInHere() {
        Api.Response admin = Api.at(port).post("/api/v1/sign-in",
                "{\"id\":\"admin\",\"password\":\"" + ADMIN_PASSWORD + "\"}");

        assertThat(admin.status()).isEqualTo(403);
        assertThat(admin.isProblem()).isTrue();
    }

    @Test
    void aPendingGateNamesItsTasklistTaskAndADecidedOneDoesNot() {
        Api alice = Api.at(port).newOwner("alice");
        String gateId = alice.post("/api/v1/gates",
                "{\"intent\":\"inbox.post\",\"payload\":{\"text\":\"hello\"},\"rationale\":\"test\"}").json()
                .path("id").asText();

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> alice.get("/api/v1/gates?state=pending").json()
                .findValuesAsText("reviewTaskId").size() == 1);
        assertThat(alice.post("/api/v1/gates/" + gateId + "/approve", "{}").status()).isEqualTo(200);
        assertThat(alice.get("/api/v1/gates/" + gateId).json().has("reviewTaskId")).isFalse();
    }

    @Test
    void aGadgetsListingCarriesItsQuietHours() {
        Api alice = Api.at(port).newOwner("alice");
        String gadget = "quiet-" + alice.accountId();
        assertThat(alice.post("/api/v1/gadgets", "{\"id\":\"" + gadget + "\",\"name\":\"Quiet one\"}").status())
                .isEqualTo(201);
        assertThat(alice.put("/api/v1/gadgets/" + gadget + "/quiet-hours",
                "{\"from\":\"22:00\",\"to\":\"07:00\",\"timeZone\":\"Europe/Berlin\"}").status()).isEqualTo(200);

        var listed = alice.get("/api/v1/gadgets/" + gadget).json().path("quietHours");

        assertThat(listed.path("from").asText()).isEqualTo("22:00");
        assertThat(listed.path("to").asText()).isEqualTo("07:00");
        assertThat(listed.path("timeZone").asText()).isEqualTo("Europe/Berlin");
    }
}
