package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.List;

import dev.ringzero.support.Api;
import dev.ringzero.support.Api.Response;
import dev.ringzero.support.PlatformTest;
import org.awaitility.Awaitility;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The approval desk end to end on PostgreSQL: REST, the engine's task authorization, execution. */
class GateDeskTest extends PlatformTest {

    @LocalServerPort
    int port;
    @Autowired
    TaskService taskService;
    @Autowired
    IdentityService identityService;

    private String fileInboxGate(Api owner, String text) {
        Response filed = owner.post("/api/v1/gates",
                "{\"intent\":\"inbox.post\",\"payload\":{\"text\":\"" + text + "\"},\"rationale\":\"test\"}");
        assertThat(filed.status()).as(filed.body()).isEqualTo(201);
        assertThat(filed.json().path("state").asText()).isEqualTo("pending");
        return filed.json().path("id").asText();
    }

    @Test
    void approvingAGateExecutesItOnceAndASecondApprovalIs409() {
        Api alice = Api.at(port).newOwner("alice");
        String gateId = fileInboxGate(alice, "hello from a gate");

        Response approved = alice.post("/api/v1/gates/" + gateId + "/approve", "{\"note\":\"fine\"}");
        Response again = alice.post("/api/v1/gates/" + gateId + "/approve", "{}");
        Response denyAfter = alice.post("/api/v1/gates/" + gateId + "/deny", "{}");

        assertThat(approved.status()).isEqualTo(200);
        assertThat(approved.json().path("decidedBy").asText()).isEqualTo(alice.accountId());
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.problemType()).endsWith("/gate-not-pending");
        assertThat(denyAfter.status()).isEqualTo(409);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() ->
                alice.get("/api/v1/gates/" + gateId).json().path("state").asText().equals("executed"));
        List<String> texts = alice.get("/api/v1/inbox").json().findValuesAsText("text");
        assertThat(texts).containsOnlyOnce("hello from a gate");
    }

    @Test
    void aDeniedGateIsNeverExecuted() {
        Api alice = Api.at(port).newOwner("alice");
        String gateId = fileInboxGate(alice, "must not arrive");

        Response denied = alice.post("/api/v1/gates/" + gateId + "/deny", "{\"note\":\"no\"}");

        assertThat(denied.json().path("state").asText()).isEqualTo("denied");
        assertThat(alice.get("/api/v1/inbox").json().findValuesAsText("text")).doesNotContain("must not arrive");
    }

    @Test
    void anotherOwnerGets404OnEveryGateRoute() {
        Api alice = Api.at(port).newOwner("alice");
        Api bob = Api.at(port).newOwner("bob");
        String gateId = fileInboxGate(alice, "private");

        assertThat(bob.get("/api/v1/gates/" + gateId).status()).isEqualTo(404);
        assertThat(bob.post("/api/v1/gates/" + gateId + "/approve", "{}").status()).isEqualTo(404);
        assertThat(bob.post("/api/v1/gates/" + gateId + "/deny", "{}").status()).isEqualTo(404);
        assertThat(bob.get("/api/v1/gates").json().findValuesAsText("id")).doesNotContain(gateId);
        assertThat(alice.get("/api/v1/gates/" + gateId).json().path("state").asText()).isEqualTo("pending");
    }

    @Test
    void tasklistShowsTheReviewTaskOnlyToItsOwnerAndOnlyTheOwnerCanComplete() {
        Api alice = Api.at(port).newOwner("alice");
        Api bob = Api.at(port).newOwner("bob");
        String gateId = fileInboxGate(alice, "tasklist");

        List<Task> seenByBob = asUser(bob.accountId(), () ->
                taskService.createTaskQuery().processInstanceBusinessKey(gateId).list());
        List<Task> seenByAlice = asUser(alice.accountId(), () ->
                taskService.createTaskQuery().processInstanceBusinessKey(gateId).list());

        assertThat(seenByBob).isEmpty();
        assertThat(seenByAlice).hasSize(1);
        String taskId = seenByAlice.get(0).getId();
        assertThatExceptionOfType(AuthorizationException.class).isThrownBy(() ->
                asUser(bob.accountId(), () -> {
                    taskService.complete(taskId, java.util.Map.of("decision", "approve"));
                    return null;
                }));
        asUser(alice.accountId(), () -> {
            taskService.complete(taskId, java.util.Map.of("decision", "deny", "note", "from tasklist"));
            return null;
        });
        Response gate = alice.get("/api/v1/gates/" + gateId);
        assertThat(gate.json().path("state").asText()).isEqualTo("denied");
        assertThat(gate.json().path("decidedBy").asText()).isEqualTo(alice.accountId());
    }

    @Test
    void anUnknownIntentOrStateIsA400() {
        Api alice = Api.at(port).newOwner("alice");

        Response unknownIntent = alice.post("/api/v1/gates", "{\"intent\":\"rm.rf\",\"payload\":{}}");
        Response unknownState = alice.get("/api/v1/gates?state=maybe");

        assertThat(unknownIntent.status()).isEqualTo(400);
        assertThat(unknownIntent.problemType()).endsWith("/unknown-intent");
        assertThat(unknownState.status()).isEqualTo(400);
    }

    private <T> T asUser(String userId, java.util.function.Supplier<T> action) {
        List<String> groups = identityService.createGroupQuery().groupMember(userId).list().stream()
                .map(group -> group.getId()).toList();
        identityService.setAuthentication(userId, groups);
        try {
            return action.get();
        } finally {
            identityService.clearAuthentication();
        }
    }
}
