package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.support.Api;
import dev.ringzero.support.PlatformTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/** {@code GET /api/v1/analyst/gates}: ended gates of every owner, for analysts only. */
class AnalystGateHistoryTest extends PlatformTest {

    @LocalServerPort
    int port;

    @Test
    void anAnalystReadsAnotherOwnersEndedGateAndNotAPendingOne() {
        Api alice = Api.at(port).newOwner("alice");
        String denied = file(alice, "deny me");
        String pending = file(alice, "leave me");
        assertThat(alice.post("/api/v1/gates/" + denied + "/deny", "{\"note\":\"no\"}").status()).isEqualTo(200);
        Api analyst = analyst();

        List<String> ended = ids(analyst.get("/api/v1/analyst/gates?limit=200").json());
        JsonNode deniedOnly = analyst.get("/api/v1/analyst/gates?state=denied&limit=200").json();

        assertThat(ended).contains(denied).doesNotContain(pending);
        assertThat(ids(deniedOnly)).contains(denied);
        deniedOnly.path("gates").forEach(gate -> assertThat(gate.path("state").asText()).isEqualTo("denied"));
        JsonNode gate = analyst.get("/api/v1/analyst/gates?state=denied&limit=200").json().findParents("id").stream()
                .filter(node -> node.path("id").asText().equals(denied)).findFirst().orElseThrow();
        assertThat(gate.path("decidedBy").asText()).isEqualTo(alice.accountId());
        assertThat(gate.path("decisionNote").asText()).isEqualTo("no");
    }

    @Test
    void ownersAre403AndBadFilters400() {
        Api alice = Api.at(port).newOwner("alice");
        Api analyst = analyst();

        assertThat(alice.get("/api/v1/analyst/gates").status()).isEqualTo(403);
        for (String query : List.of("state=pending", "state=exploded", "limit=0", "from=later", "cursor=x")) {
            Api.Response answer = analyst.get("/api/v1/analyst/gates?" + query);
            assertThat(answer.status()).as(query).isEqualTo(400);
            assertThat(answer.problemType()).as(query).isEqualTo("https://ringzero.dev/problems/invalid-filter");
        }
    }

    private static String file(Api owner, String text) {
        Api.Response filed = owner.post("/api/v1/gates",
                "{\"intent\":\"inbox.post\",\"payload\":{\"text\":\"" + text + "\"},\"rationale\":\"test\"}");
        assertThat(filed.status()).as(filed.body()).isEqualTo(201);
        return filed.json().path("id").asText();
    }

    private Api analyst() {
        String id = "analyst-" + UUID.randomUUID().toString().substring(0, 8);
        Api.Response created = Api.at(port).basic("admin", ADMIN_PASSWORD).post("/api/v1/admin/accounts",
                "{\"id\":\"" + id + "\",\"password\":\"password-" + id + "\",\"role\":\"analyst\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return Api.at(port).bearer(created.json().path("token").asText());
    }

    private static List<String> ids(JsonNode page) {
        return page.path("gates").findValuesAsText("id");
    }
}
