package dev.ringzero.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ringzero.support.Api;
import dev.ringzero.support.Api.Response;
import dev.ringzero.support.PlatformTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

class AuthenticationTest extends PlatformTest {

    @LocalServerPort
    int port;

    @Test
    void routesWithoutACredentialAnswer401ProblemJson() {
        Response response = Api.at(port).get("/api/v1/inbox");

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.isProblem()).isTrue();
        assertThat(response.problemType()).endsWith("/unauthorized");
    }

    @Test
    void anUnknownTokenIsRefused() {
        Response response = Api.at(port).bearer("rz_not-a-real-token").get("/api/v1/inbox");

        assertThat(response.status()).isEqualTo(401);
    }

    @Test
    void aCreatedAccountsTokenWorksAndIsShownOnlyOnce() {
        Api owner = Api.at(port).newOwner("alice");

        Response inbox = owner.get("/api/v1/inbox");

        assertThat(inbox.status()).isEqualTo(200);
        assertThat(inbox.json().isArray()).isTrue();
    }

    @Test
    void adminRoutesRefuseAWrongPasswordAndOwnerTokens() {
        Api owner = Api.at(port).newOwner("mallory");
        String body = "{\"id\":\"eve-1\",\"password\":\"password-eve\"}";

        // (a wrong password for 'admin' itself would lock the account for seconds: Camunda's
        // brute-force delay, which the other tests of this shared context must not meet)
        assertThat(Api.at(port).basic("root", "wrong").post("/api/v1/admin/accounts", body).status())
                .isEqualTo(401);
        assertThat(Api.at(port).basic(owner.accountId(), "password-" + owner.accountId())
                .post("/api/v1/admin/accounts", body).status()).isEqualTo(401);
        assertThat(owner.post("/api/v1/admin/accounts", body).status()).isEqualTo(401);
    }

    @Test
    void creatingTheSameAccountTwiceIsAConflict() {
        Api admin = Api.at(port).basic("admin", ADMIN_PASSWORD);
        String body = "{\"id\":\"twice-1\",\"password\":\"password-twice\"}";

        assertThat(admin.post("/api/v1/admin/accounts", body).status()).isEqualTo(201);
        Response again = admin.post("/api/v1/admin/accounts", body);

        assertThat(again.status()).isEqualTo(409);
        assertThat(again.problemType()).endsWith("/account-exists");
    }

    @Test
    void malformedJsonOnTheAccountsRouteIsA400() {
        Response response = Api.at(port).basic("admin", ADMIN_PASSWORD)
                .post("/api/v1/admin/accounts", "{\"id\":\"x\",");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.isProblem()).isTrue();
        assertThat(response.problemType()).endsWith("/malformed-request");
    }

    @Test
    void anUnknownFieldOnTheAccountsRouteIsA400NamingTheField() {
        Response response = Api.at(port).basic("admin", ADMIN_PASSWORD).post("/api/v1/admin/accounts",
                "{\"id\":\"field-1\",\"password\":\"password-1\",\"isAdmin\":true}");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().path("field").asText()).isEqualTo("isAdmin");
        assertThat(response.json().path("detail").asText()).contains("isAdmin");
    }

    @Test
    void aMissingRequiredFieldIsA400NamingTheField() {
        Response response = Api.at(port).basic("admin", ADMIN_PASSWORD).post("/api/v1/admin/accounts",
                "{\"id\":\"nopass-1\"}");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().path("fields").toString()).contains("password");
    }

    @Test
    void aGatewayTokenCanAdmitEventsOnlyAndOwnersCannotAdmitEvents() {
        Api admin = Api.at(port).basic("admin", ADMIN_PASSWORD);
        String token = admin.post("/api/v1/admin/service-tokens", "{\"role\":\"gateway\"}").json()
                .get("token").asText();
        Api gateway = Api.at(port).bearer(token);
        Api owner = Api.at(port).newOwner("carol");

        assertThat(gateway.get("/api/v1/inbox").status()).isEqualTo(403);
        assertThat(owner.post("/api/v1/gadgets/events", "{}").status()).isEqualTo(403);
    }

    @Test
    void anOversizedBodyIsRefusedWith413() {
        String big = "{\"id\":\"big\",\"password\":\"" + "x".repeat(300_000) + "\"}";

        Response response = Api.at(port).basic("admin", ADMIN_PASSWORD).post("/api/v1/admin/accounts", big);

        assertThat(response.status()).isEqualTo(413);
        assertThat(response.problemType()).endsWith("/payload-too-large");
    }
}
