package dev.ringzero.agents.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.support.Agents;
import dev.ringzero.support.Api;
import dev.ringzero.support.OwnerWithDeskBotTest;
import dev.ringzero.support.PlatformTest;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /api/v1/analyst/runs}: finished runs of every owner with RingZero's outcome, for analysts only. */
class AnalystRunHistoryTest extends OwnerWithDeskBotTest {

    Api analyst;
    String agentId;
    String runId;

    @BeforeEach
    void aliceHasAFinishedRun() {
        analyst = analyst(port);
        agentId = Agents.create(alice, Agents.sound(bot.gadgetId(), "chime", 100, "queued"));
        runId = Agents.runNow(alice, agentId);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !runs(analyst, "?agent=" + agentId).isEmpty());
    }

    static Api analyst(int port) {
        String id = "analyst-" + UUID.randomUUID().toString().substring(0, 8);
        Api.Response created = Api.at(port).basic("admin", PlatformTest.ADMIN_PASSWORD).post("/api/v1/admin/accounts",
                "{\"id\":\"" + id + "\",\"password\":\"password-" + id + "\",\"role\":\"analyst\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return Api.at(port).bearer(created.json().path("token").asText());
    }

    @Test
    void anAnalystReadsAnotherOwnersFinishedRunWithItsOutcome() {
        JsonNode run = runs(analyst, "?agent=" + agentId).get(0);

        assertThat(run.path("id").asText()).isEqualTo(runId);
        assertThat(run.path("ownerId").asText()).isEqualTo(alice.accountId());
        assertThat(run.path("agentName").asText()).isEqualTo("chime");
        assertThat(run.path("kind").asText()).isEqualTo("rules");
        assertThat(run.path("status").asText()).isEqualTo("succeeded");
        assertThat(run.path("endedAt").isMissingNode()).isFalse();

        JsonNode detail = analyst.get("/api/v1/analyst/runs/" + runId).json();
        assertThat(detail.at("/detail/actions/0/command").asText()).isEqualTo("speaker.play_url");
        assertThat(detail.at("/detail/actions/0/gadget").asText()).isEqualTo(bot.gadgetId());
    }

    @Test
    void filtersByGadgetAndStatus() {
        assertThat(runs(analyst, "?gadget=" + bot.gadgetId())).extracting(run -> run.path("id").asText())
                .contains(runId);
        assertThat(runs(analyst, "?gadget=nobodys-board")).isEmpty();
        assertThat(runs(analyst, "?agent=" + agentId + "&status=succeeded,failed")).hasSize(1);
        assertThat(runs(analyst, "?agent=" + agentId + "&status=fenced")).isEmpty();
        assertThat(runs(analyst, "?agent=" + agentId + "&to=2000-01-01T00:00:00Z")).isEmpty();
    }

    @Test
    void anOwnerMayNotReadTheHistoryOfEveryOwner() {
        Api.Response list = alice.get("/api/v1/analyst/runs");
        Api.Response one = alice.get("/api/v1/analyst/runs/" + runId);

        assertThat(list.status()).isEqualTo(403);
        assertThat(list.isProblem()).isTrue();
        assertThat(one.status()).isEqualTo(403);
        assertThat(Api.at(port).get("/api/v1/analyst/runs").status()).as("no login at all").isEqualTo(401);
    }

    @Test
    void badFiltersAre400() {
        for (String query : List.of("status=running", "status=exploded", "limit=0", "limit=201", "from=soon",
                "cursor=garbage", "agent=" + "a".repeat(37))) {
            Api.Response answer = analyst.get("/api/v1/analyst/runs?" + query);

            assertThat(answer.status()).as(query + " → " + answer.body()).isEqualTo(400);
            assertThat(answer.problemType()).as(query).isEqualTo("https://ringzero.dev/problems/invalid-filter");
        }
    }

    @Test
    void pagesFollowTheCursor() {
        Agents.runNow(alice, agentId);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> runs(analyst, "?agent=" + agentId).size() == 2);

        JsonNode first = analyst.get("/api/v1/analyst/runs?agent=" + agentId + "&limit=1").json();
        JsonNode second = analyst.get("/api/v1/analyst/runs?agent=" + agentId + "&limit=1&cursor="
                + java.net.URLEncoder.encode(first.path("next").asText(), java.nio.charset.StandardCharsets.UTF_8))
                .json();

        assertThat(first.path("runs")).hasSize(1);
        assertThat(second.path("runs")).hasSize(1);
        assertThat(second.at("/runs/0/id").asText()).isNotEqualTo(first.at("/runs/0/id").asText());
        assertThat(second.has("next")).isFalse();
    }

    private static List<JsonNode> runs(Api caller, String query) {
        Api.Response answer = caller.get("/api/v1/analyst/runs" + query);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        List<JsonNode> runs = new ArrayList<>();
        answer.json().path("runs").forEach(runs::add);
        return runs;
    }
}
