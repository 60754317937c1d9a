package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
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
import org.springframework.beans.factory.annotation.Autowired;

/** {@code GET /api/v1/audit} on PostgreSQL: whose entries a caller reads, the filters, the pages, bad input. */
class AuditApiTest extends OwnerWithDeskBotTest {

    @Autowired
    Audit audit;

    Api bob;

    @BeforeEach
    void bobHasEntriesOfHisOwn() {
        bob = Api.at(port).newOwner("bob");
        audit.append(bob.accountId(), UUID.randomUUID().toString(), null, null, "email.send",
                Audit.Disposition.REFUSED, "kernel", null, "not granted");
    }

    @Test
    void anOwnerReadsTheirOwnEntriesAndNeverAnotherOwners() {
        String agent = UUID.randomUUID().toString();
        audit.append(alice.accountId(), agent, null, null, "webhook.post", Audit.Disposition.GATED, "default", null,
                "asks first");

        List<JsonNode> alices = entries(alice, "");
        List<JsonNode> bobs = entries(bob, "");

        assertThat(alices).extracting(entry -> entry.path("ownerId").asText()).containsOnly(alice.accountId());
        assertThat(alices).extracting(entry -> entry.path("agentId").asText()).contains(agent);
        assertThat(bobs).isNotEmpty().extracting(entry -> entry.path("ownerId").asText())
                .containsOnly(bob.accountId());
        // bob naming alice's agent reads nothing of hers
        assertThat(entries(bob, "?agent=" + agent)).isEmpty();
    }

    @Test
    void anAnalystReadsEveryOwnersEntriesAndMayNarrowToOne() {
        Api analyst = analyst();
        audit.append(alice.accountId(), null, null, null, "email.send", Audit.Disposition.DENIED, alice.accountId(),
                null, "no");

        List<JsonNode> all = entries(analyst, "?limit=500");
        List<JsonNode> onlyBob = entries(analyst, "?owner=" + bob.accountId());

        assertThat(all).extracting(entry -> entry.path("ownerId").asText())
                .contains(alice.accountId(), bob.accountId());
        assertThat(onlyBob).isNotEmpty().extracting(entry -> entry.path("ownerId").asText())
                .containsOnly(bob.accountId());
    }

    @Test
    void anOwnerMayNotNameAnotherOwner() {
        Api.Response answer = alice.get("/api/v1/audit?owner=" + bob.accountId());

        assertThat(answer.status()).isEqualTo(403);
        assertThat(answer.isProblem()).isTrue();
    }

    @Test
    void aRunsDeviceCommandIsFoundByItsGadget() {
        String agentId = Agents.create(alice, Agents.sound(bot.gadgetId(), "chime", 100, "queued"));
        Agents.runNow(alice, agentId);

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !entries(alice, "?agent=" + agentId).isEmpty());
        List<JsonNode> byGadget = entries(alice, "?gadget=" + bot.gadgetId());

        assertThat(byGadget).isNotEmpty().allSatisfy(entry -> {
            assertThat(entry.path("gadgetId").asText()).isEqualTo(bot.gadgetId());
            assertThat(entry.path("agentId").asText()).isEqualTo(agentId);
        });
        assertThat(byGadget).extracting(entry -> entry.path("kind").asText()).contains("auto-executed");
        assertThat(entries(alice, "?gadget=someone-elses-board")).isEmpty();
    }

    @Test
    void filtersByTimeAgentAndKind() throws InterruptedException {
        String agent = UUID.randomUUID().toString();
        audit.append(alice.accountId(), agent, null, null, "email.send", Audit.Disposition.GATED, "default", null,
                "first");
        Thread.sleep(20);
        Instant between = Instant.now();
        Thread.sleep(20);
        audit.append(alice.accountId(), agent, null, null, "email.send", Audit.Disposition.APPROVED,
                alice.accountId(), null, "second");
        audit.append(alice.accountId(), agent, null, null, "email.send", Audit.Disposition.EXECUTED, "system", null,
                "third");

        assertThat(details(entries(alice, "?agent=" + agent))).containsExactly("third", "second", "first");
        assertThat(details(entries(alice, "?agent=" + agent + "&from=" + encode(between))))
                .containsExactly("third", "second");
        assertThat(details(entries(alice, "?agent=" + agent + "&to=" + encode(between)))).containsExactly("first");
        assertThat(details(entries(alice, "?agent=" + agent + "&kind=gated&kind=executed")))
                .containsExactly("third", "first");
        assertThat(details(entries(alice, "?agent=" + agent + "&kind=approved,gated")))
                .containsExactly("second", "first");
    }

    @Test
    void pagesFollowTheCursorNewestFirstWithoutGapsOrRepeats() {
        String agent = UUID.randomUUID().toString();
        for (int i = 1; i <= 5; i++) {
            audit.append(alice.accountId(), agent, null, null, "email.send", Audit.Disposition.REFUSED, "kernel", null,
                    "entry " + i);
        }
        List<String> read = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = alice.get("/api/v1/audit?agent=" + agent + "&limit=2"
                    + (cursor == null ? "" : "&cursor=" + cursor)).json();
            sizes.add(page.path("entries").size());
            page.path("entries").forEach(entry -> read.add(entry.path("detail").asText()));
            cursor = page.hasNonNull("next") ? page.path("next").asText() : null;
        } while (cursor != null);

        assertThat(sizes).containsExactly(2, 2, 1);
        assertThat(read).containsExactly("entry 5", "entry 4", "entry 3", "entry 2", "entry 1");
    }

    @Test
    void badFiltersAre400InvalidFilterAndNameWhatWasWrong() {
        String tooLong = "a".repeat(37);
        for (String query : List.of("limit=0", "limit=501", "limit=ten", "from=yesterday", "to=2026-13-01T00:00:00Z",
                "from=2026-12-03T10:00:00Z&to=2026-12-03T09:00:00Z", "kind=exploded", "kind=gated,", "cursor=-1",
                "cursor=abc", "agent=" + tooLong, "gadget=" + encode("desk 1"), "colour=red", "limit=1&limit=2")) {
            Api.Response answer = alice.get("/api/v1/audit?" + query);

            assertThat(answer.status()).as(query + " → " + answer.body()).isEqualTo(400);
            assertThat(answer.isProblem()).as(query).isTrue();
            assertThat(answer.problemType()).as(query).isEqualTo("https://ringzero.dev/problems/invalid-filter");
            assertThat(answer.json().path("detail").asText()).as(query).isNotBlank();
        }
    }

    @Test
    void withoutATokenTheTrailIsClosed() {
        assertThat(Api.at(port).get("/api/v1/audit").status()).isEqualTo(401);
    }

    private Api analyst() {
        String id = "analyst-" + UUID.randomUUID().toString().substring(0, 8);
        Api.Response created = Api.at(port).basic("admin", PlatformTest.ADMIN_PASSWORD).post("/api/v1/admin/accounts",
                "{\"id\":\"" + id + "\",\"password\":\"password-" + id + "\",\"role\":\"analyst\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return Api.at(port).bearer(created.json().path("token").asText());
    }

    private static List<JsonNode> entries(Api caller, String query) {
        Api.Response answer = caller.get("/api/v1/audit" + query);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        List<JsonNode> entries = new ArrayList<>();
        answer.json().path("entries").forEach(entries::add);
        return entries;
    }

    private static List<String> details(List<JsonNode> entries) {
        return entries.stream().map(entry -> entry.path("detail").asText()).toList();
    }

    private static String encode(Object value) {
        return URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8);
    }
}
