package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.ringzero.support.Api;
import dev.ringzero.support.Api.Response;
import dev.ringzero.support.PlatformTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The trust ladder's routes: ordered, owner-scoped, and strict about what they accept. */
class TrustRulesTest extends PlatformTest {

    @LocalServerPort
    int port;

    private static String rule(String intent, String level) {
        return "{\"intent\":\"" + intent + "\",\"level\":\"" + level + "\"}";
    }

    @Test
    void rulesApplyInTheOwnersOrderAndAPositionInsertsBeforeTheRest() {
        Api alice = Api.at(port).newOwner("alice");
        Response gate = alice.post("/api/v1/trust-rules", rule("email.send", "gate"));
        Response deny = alice.post("/api/v1/trust-rules", rule("webhook.*", "deny"));
        Response first = alice.post("/api/v1/trust-rules",
                "{\"intent\":\"email.send\",\"predicate\":{\"to\":\"*@ourco.example\"},\"level\":\"auto\",\"position\":0}");
        Response earned = alice.post("/api/v1/trust-rules",
                "{\"intent\":\"chassis.*\",\"level\":\"earned\",\"earnAfter\":3,\"earnWindow\":\"P30D\"}");

        assertThat(List.of(gate.status(), deny.status(), first.status(), earned.status())).containsOnly(201);
        assertThat(first.json().at("/predicate/to").asText()).isEqualTo("*@ourco.example");
        assertThat(earned.json().path("earnAfter").asInt()).isEqualTo(3);
        assertThat(earned.json().path("earnWindow").asText()).isEqualTo("P30D");
        List<String> order = alice.get("/api/v1/trust-rules").json().findValuesAsText("id");
        assertThat(order).containsExactly(first.json().path("id").asText(), gate.json().path("id").asText(),
                deny.json().path("id").asText(), earned.json().path("id").asText());
        assertThat(alice.delete("/api/v1/trust-rules/" + gate.json().path("id").asText()).status()).isEqualTo(204);
        assertThat(alice.get("/api/v1/trust-rules").json().findValuesAsText("level")).containsExactly("auto", "deny",
                "earned");
    }

    @Test
    void badInputIsA400ProblemWithAStableType() {
        Api alice = Api.at(port).newOwner("alice");
        Api bob = Api.at(port).newOwner("bob");
        String bobsAgent = "00000000-0000-0000-0000-000000000000";

        Response unknownLevel = alice.post("/api/v1/trust-rules", rule("email.send", "sometimes"));
        Response badIntentGlob = alice.post("/api/v1/trust-rules", rule("email send!", "auto"));
        Response badPredicateGlob = alice.post("/api/v1/trust-rules",
                "{\"intent\":\"email.send\",\"predicate\":{\"to\":\"*@a.example@b.example\"},\"level\":\"auto\"}");
        Response nestedPredicate = alice.post("/api/v1/trust-rules",
                "{\"intent\":\"email.send\",\"predicate\":{\"to\":{\"any\":\"x\"}},\"level\":\"auto\"}");
        Response unknownAgent = alice.post("/api/v1/trust-rules",
                "{\"agentId\":\"" + bobsAgent + "\",\"intent\":\"email.send\",\"level\":\"auto\"}");
        Response earnedWithoutTerms = alice.post("/api/v1/trust-rules", rule("email.send", "earned"));
        Response termsOnAuto = alice.post("/api/v1/trust-rules",
                "{\"intent\":\"email.send\",\"level\":\"auto\",\"earnAfter\":2}");

        assertThat(unknownLevel.status()).isEqualTo(400);
        assertThat(unknownLevel.isProblem()).isTrue();
        assertThat(unknownLevel.problemType()).endsWith("/unknown-level");
        assertThat(badIntentGlob.problemType()).endsWith("/invalid-glob");
        assertThat(badPredicateGlob.problemType()).endsWith("/invalid-glob");
        assertThat(nestedPredicate.problemType()).endsWith("/invalid-glob");
        assertThat(unknownAgent.status()).isEqualTo(400);
        assertThat(unknownAgent.problemType()).endsWith("/unknown-agent");
        assertThat(earnedWithoutTerms.problemType()).endsWith("/invalid-trust-rule");
        assertThat(termsOnAuto.problemType()).endsWith("/invalid-trust-rule");
        assertThat(alice.get("/api/v1/trust-rules").json()).isEmpty();
        assertThat(bob.get("/api/v1/trust-rules").json()).isEmpty();
    }

    @Test
    void anotherOwnerGets404OnEveryRuleRouteAndSeesNone() {
        Api alice = Api.at(port).newOwner("alice");
        Api bob = Api.at(port).newOwner("bob");
        String id = alice.post("/api/v1/trust-rules", rule("email.send", "auto")).json().path("id").asText();

        assertThat(bob.get("/api/v1/trust-rules/" + id).status()).isEqualTo(404);
        assertThat(bob.delete("/api/v1/trust-rules/" + id).status()).isEqualTo(404);
        assertThat(bob.get("/api/v1/trust-rules").json().findValuesAsText("id")).doesNotContain(id);
        assertThat(alice.get("/api/v1/trust-rules/" + id).status()).isEqualTo(200);
    }
}
