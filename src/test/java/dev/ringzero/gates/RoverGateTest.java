package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.firmware.ReceivedInvocation;
import dev.ringzero.firmware.ReceivedInvocation.Handling;
import dev.ringzero.firmware.Rover;
import dev.ringzero.support.Agents;
import dev.ringzero.support.Api;
import dev.ringzero.support.Api.Response;
import dev.ringzero.support.Boards;
import dev.ringzero.support.PlatformTest;
import dev.ringzero.workflow.GateProcess;
import org.awaitility.Awaitility;
import org.camunda.bpm.engine.FilterService;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A rover agent's physical command through the whole desk on the real stack: gated by default,
 * approved in Tasklist by its owner only, executed exactly once on the board, reconciled after a
 * simulated crash without a second execution, fenced when its agent or gadget goes away, and
 * waking the agent when it resolves.
 */
class RoverGateTest extends PlatformTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @LocalServerPort
    int port;
    @Autowired
    TaskService taskService;
    @Autowired
    IdentityService identityService;
    @Autowired
    RuntimeService runtimeService;
    @Autowired
    HistoryService historyService;
    @Autowired
    FilterService filterService;
    @Autowired
    Audit audit;
    @Autowired
    GateReconciler reconciler;
    @Autowired
    JdbcClient jdbc;

    private final Boards boards = new Boards();
    private Api alice;
    private Rover rover;

    @BeforeEach
    void setUp() {
        alice = Api.at(port).newOwner("alice");
        rover = boards.rover(alice);
    }

    @AfterEach
    void tearDown() {
        boards.close();
    }

    static String patrol(String rover, boolean wakeOnResolve) {
        return """
                {"apiVersion":"ringzero/v1","name":"Patrol","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"invoke"}],
                 "actions":[{"gadget":"%1$s","command":"chassis.drive","params":{"left":50,"right":50,"duration_ms":300}}],
                 "allow":{"commands":["chassis.drive"],"physical":true},
                 "budget":{"runsPerHour":100},"concurrency":"queued","wakeOnResolve":%2$s}
                """.formatted(rover, wakeOnResolve);
    }

    /** Runs the agent once and returns the id of the gate its chassis.drive filed. */
    private String proposeDrive(String agent) {
        String runId = Agents.runNow(alice, agent);
        Awaitility.await().atMost(WAIT).until(() ->
                "gated".equals(Agents.run(alice, runId).at("/actions/0/outcome").asText()));
        return Agents.run(alice, runId).at("/actions/0/result/gate").asText();
    }

    private JsonNode gate(String gateId) {
        return alice.get("/api/v1/gates/" + gateId).json();
    }

    private void awaitState(String gateId, String state) {
        Awaitility.await().atMost(WAIT).until(() -> state.equals(gate(gateId).path("state").asText()));
    }

    private List<ReceivedInvocation> invocationsOf(String gateId) {
        return rover.invocations().stream().filter(invocation -> invocation.id().equals(gateId)).toList();
    }

    @Test
    void theOwnerApprovesInTasklistAndExactlyOneInvokeReachesTheRoverWithTheWholeStoryRecorded() {
        Api bob = Api.at(port).newOwner("bob");
        String agent = Agents.create(alice, patrol(rover.gadgetId(), false));

        String gateId = proposeDrive(agent);

        JsonNode filed = gate(gateId);
        assertThat(filed.path("state").asText()).isEqualTo("pending");
        assertThat(filed.path("intent").asText()).isEqualTo("chassis.drive");
        assertThat(filed.at("/payload/gadget").asText()).isEqualTo(rover.gadgetId());
        assertThat(filed.at("/payload/params/left").asInt()).isEqualTo(50);
        assertThat(filed.path("ruleId").isMissingNode() || filed.path("ruleId").isNull()).isTrue();
        assertThat(rover.invocations()).isEmpty();

        // owner B: nothing over REST, nothing in Tasklist
        assertThat(bob.get("/api/v1/gates/" + gateId).status()).isEqualTo(404);
        assertThat(bob.get("/api/v1/gadget-agents/" + agent + "/journal").status()).isEqualTo(404);
        assertThat(asUser(bob.accountId(), () -> taskService.createTaskQuery().list())).isEmpty();
        String filter = filterService.createFilterQuery().filterName(GateProcess.TASKLIST_FILTER).singleResult()
                .getId();
        assertThat(asUser(bob.accountId(), () -> filterService.<Task>list(filter))).isEmpty();
        assertThat(asUser(alice.accountId(), () -> filterService.<Task>list(filter)))
                .extracting(Task::getProcessInstanceId)
                .contains(jdbc.sql("select process_instance_id from rz_gate where id = ?").param(gateId)
                        .query(String.class).single());

        List<Task> tasks = asUser(alice.accountId(), () ->
                taskService.createTaskQuery().processInstanceBusinessKey(gateId).initializeFormKeys().list());
        assertThat(tasks).hasSize(1);
        Map<String, Object> shown = taskService.getVariables(tasks.get(0).getId());
        assertThat((String) shown.get("summary")).contains("chassis.drive", rover.gadgetId(), "left: 50");
        asUser(alice.accountId(), () -> {
            taskService.complete(tasks.get(0).getId(), Map.of("decision", "approve", "note", "go"));
            return null;
        });

        awaitState(gateId, "executed");
        assertThat(invocationsOf(gateId)).extracting(ReceivedInvocation::handling).containsExactly(Handling.EXECUTED);
        assertThat(rover.invocations()).hasSize(1);
        assertThat(rover.motionLog()).hasSize(1);
        JsonNode executed = gate(gateId);
        assertThat(executed.path("decidedBy").asText()).isEqualTo(alice.accountId());
        assertThat(executed.at("/result/outcome").asText()).isEqualTo("completed");
        assertThat(executed.at("/result/payload/status").asText()).isEqualTo("completed");

        assertThat(audit.ofGate(gateId)).extracting(Audit.Entry::disposition)
                .containsExactly("gated", "approved", "executed");
        assertThat(audit.ofGate(gateId)).extracting(Audit.Entry::actor)
                .containsExactly("default", alice.accountId(), alice.accountId());
        Awaitility.await().atMost(WAIT).until(() -> alice.get("/api/v1/gadget-agents/" + agent + "/journal").json()
                .findValuesAsText("kind").contains("gate.executed"));
        List<String> journal = alice.get("/api/v1/gadget-agents/" + agent + "/journal").json()
                .findValuesAsText("kind");
        assertThat(journal).containsSubsequence("gate.filed", "gate.approved", "gate.executing", "gate.executed");
    }

    @Test
    void twoClientsApprovingAtOnceExecuteOnceAndTheLoserGets409() throws Exception {
        String agent = Agents.create(alice, patrol(rover.gadgetId(), false));
        String gateId = proposeDrive(agent);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService clients = Executors.newFixedThreadPool(2);
        List<Future<Response>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                answers.add(clients.submit(() -> {
                    start.await();
                    return alice.post("/api/v1/gates/" + gateId + "/approve", "{}");
                }));
            }
            start.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<Response> answer : answers) {
                statuses.add(answer.get().status());
            }

            assertThat(statuses).containsExactlyInAnyOrder(200, 409);
        } finally {
            clients.shutdownNow();
        }
        awaitState(gateId, "executed");
        assertThat(alice.post("/api/v1/gates/" + gateId + "/approve", "{}").status()).isEqualTo(409);
        assertThat(alice.post("/api/v1/gates/" + gateId + "/deny", "{}").status()).isEqualTo(409);
        Thread.sleep(500);
        assertThat(invocationsOf(gateId)).extracting(ReceivedInvocation::handling).containsExactly(Handling.EXECUTED);
        assertThat(audit.ofGate(gateId)).extracting(Audit.Entry::disposition).containsOnlyOnce("approved", "executed");
    }

    @Test
    void approvingAfterADenialIs409AndNothingMoves() throws Exception {
        String agent = Agents.create(alice, patrol(rover.gadgetId(), false));
        String gateId = proposeDrive(agent);

        assertThat(alice.post("/api/v1/gates/" + gateId + "/deny", "{\"note\":\"not now\"}").status()).isEqualTo(200);
        Response approve = alice.post("/api/v1/gates/" + gateId + "/approve", "{}");

        assertThat(approve.status()).isEqualTo(409);
        assertThat(approve.problemType()).endsWith("/gate-not-pending");
        Thread.sleep(500);
        assertThat(rover.invocations()).isEmpty();
        assertThat(gate(gateId).path("state").asText()).isEqualTo("denied");
    }

    @Test
    void aCrashBetweenExecutingAndTheAnswerIsReconciledByReplayNotBySecondExecution() {
        String agent = Agents.create(alice, patrol(rover.gadgetId(), false));
        String gateId = proposeDrive(agent);
        alice.post("/api/v1/gates/" + gateId + "/approve", "{}");
        awaitState(gateId, "executed");
        Awaitility.await().atMost(WAIT).until(() ->
                runtimeService.createProcessInstanceQuery().processInstanceBusinessKey(gateId).count() == 0);
        // The platform "died" after link.invoke left and before the answer was recorded: the gate is
        // executing, the invocation sent and unanswered, and no process carries it any more.
        jdbc.sql("update rz_gate set state = 'executing', result = null, finished_at = null where id = ?")
                .param(gateId).update();
        jdbc.sql("update rz_invocation set outcome = 'sent', result = null, answered_at = null where id = ?")
                .param(gateId).update();

        List<String> reconciled = reconciler.reconcile();

        assertThat(reconciled).contains(gateId);
        awaitState(gateId, "executed");
        assertThat(invocationsOf(gateId)).extracting(ReceivedInvocation::handling)
                .containsExactly(Handling.EXECUTED, Handling.REPLAYED);
        assertThat(rover.motionLog()).hasSize(1);
        assertThat(gate(gateId).at("/result/outcome").asText()).isEqualTo("completed");
    }

    @Test
    void anInvocationThatNeverLeftBeforeTheCrashIsRefusedAsExpiredNotExecutedLate() {
        String agent = Agents.create(alice, patrol(rover.gadgetId(), false));
        String gateId = proposeDrive(agent);
        String instance = jdbc.sql("select process_instance_id from rz_gate where id = ?").param(gateId)
                .query(String.class).single();
        // approved and recorded as sent, but the publish never happened and the deadline has passed
        runtimeService.deleteProcessInstance(instance, "test: the node died", true);
        jdbc.sql("update rz_gate set state = 'executing', decided_by = ?, decided_at = ?, executing_at = ? where id = ?")
                .params(alice.accountId(), Timestamp.from(Instant.now()), Timestamp.from(Instant.now()), gateId)
                .update();
        jdbc.sql("insert into rz_invocation(id, owner_id, gadget_id, command, params, origin, run_id, outcome, sent_at, "
                        + "deadline) values (?, ?, ?, 'chassis.drive', '{\"left\":50,\"right\":50,\"duration_ms\":300}', "
                        + "'gate', null, 'sent', ?, ?)")
                .params(gateId, alice.accountId(), rover.gadgetId(), Timestamp.from(Instant.now().minusSeconds(30)),
                        Timestamp.from(Instant.now().minusSeconds(10)))
                .update();

        reconciler.reconcile();

        awaitState(gateId, "failed");
        assertThat(gate(gateId).at("/result/error").asText()).isEqualTo("expired");
        assertThat(invocationsOf(gateId)).extracting(ReceivedInvocation::handling).containsExactly(Handling.REFUSED);
        assertThat(rover.motionLog()).isEmpty();
    }

    @Test
    void disablingTheAgentFencesItsPendingGatesAndEndsTheirProcesses() {
        String agent = Agents.create(alice, patrol(rover.gadgetId(), false));
        String first = proposeDrive(agent);
        String second = proposeDrive(agent);

        assertThat(alice.post("/api/v1/gadget-agents/" + agent + "/disable", null).status()).isEqualTo(200);

        for (String gateId : List.of(first, second)) {
            assertThat(gate(gateId).path("state").asText()).isEqualTo("fenced");
            assertThat(runtimeService.createProcessInstanceQuery().processInstanceBusinessKey(gateId).count())
                    .isZero();
            assertThat(historyService.createHistoricActivityInstanceQuery().activityId("EndEvent_Fenced")
                    .processInstanceId(jdbc.sql("select process_instance_id from rz_gate where id = ?").param(gateId)
                            .query(String.class).single()).count()).isEqualTo(1);
            assertThat(audit.ofGate(gateId)).extracting(Audit.Entry::disposition).containsExactly("gated", "fenced");
            assertThat(alice.post("/api/v1/gates/" + gateId + "/approve", "{}").status()).isEqualTo(409);
        }
        assertThat(alice.get("/api/v1/gadget-agents/" + agent + "/journal").json().findValuesAsText("kind"))
                .contains("gate.fenced");
        assertThat(rover.invocations()).isEmpty();
    }

    @Test
    void unpairingTheGadgetFencesItsPendingGates() {
        String agent = Agents.create(alice, patrol(rover.gadgetId(), false));
        String gateId = proposeDrive(agent);

        assertThat(alice.delete("/api/v1/gadgets/" + rover.gadgetId()).status()).isBetween(200, 204);

        assertThat(gate(gateId).path("state").asText()).isEqualTo("fenced");
        assertThat(gate(gateId).at("/result/reason").asText()).contains("unpaired");
        assertThat(runtimeService.createProcessInstanceQuery().processInstanceBusinessKey(gateId).count()).isZero();
    }

    @Test
    void aResolvedGateWakesAnAgentThatAskedForItWithTheOutcomeAsTrigger() {
        String agent = Agents.create(alice, patrol(rover.gadgetId(), true));
        String gateId = proposeDrive(agent);

        alice.post("/api/v1/gates/" + gateId + "/deny", "{\"note\":\"stay\"}");

        JsonNode continuation = awaitContinuation(agent);
        assertThat(continuation.at("/trigger/gate/id").asText()).isEqualTo(gateId);
        assertThat(continuation.at("/trigger/gate/state").asText()).isEqualTo("denied");
        assertThat(continuation.at("/trigger/gate/note").asText()).isEqualTo("stay");
    }

    @Test
    void aGateSettledByTheDevicesAnswerWakesAnAgentThatAskedForIt() {
        String agent = Agents.create(alice, patrol(rover.gadgetId(), true));
        String gateId = proposeDrive(agent);

        alice.post("/api/v1/gates/" + gateId + "/approve", "{\"note\":\"go\"}");

        awaitState(gateId, "executed"); // settled on the rover's link.result, on the answer lane
        JsonNode continuation = awaitContinuation(agent);
        assertThat(continuation.at("/trigger/gate/id").asText()).isEqualTo(gateId);
        assertThat(continuation.at("/trigger/gate/state").asText()).isEqualTo("executed");
    }

    /** The agent's first run started by a resolved gate (its continuation), once there is one. */
    private JsonNode awaitContinuation(String agent) {
        Awaitility.await().atMost(WAIT).until(() -> Agents.runs(alice, agent).stream()
                .anyMatch(run -> "continuation".equals(run.path("triggerKind").asText())));
        return Agents.runs(alice, agent).stream()
                .filter(run -> "continuation".equals(run.path("triggerKind").asText())).findFirst().orElseThrow();
    }

    private <T> T asUser(String userId, Supplier<T> action) {
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
