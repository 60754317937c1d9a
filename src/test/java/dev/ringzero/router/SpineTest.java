package dev.ringzero.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.support.Agents;
import dev.ringzero.support.Api;
import dev.ringzero.support.Api.Response;
import dev.ringzero.support.Definitions;
import dev.ringzero.support.OwnerWithDeskBotTest;
import org.awaitility.Awaitility;
import org.camunda.bpm.engine.HistoryService;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Event → admission → routing → agent-run → link.invoke, end to end on PostgreSQL, Mosquitto and a desk bot. */
class SpineTest extends OwnerWithDeskBotTest {

    @Autowired
    HistoryService history;
    @Autowired
    EventAdmission admission;
    @Autowired
    TriggerRouter router;
    @Autowired
    org.springframework.jdbc.core.simple.JdbcClient jdbc;
    @Autowired
    java.util.List<dev.ringzero.dispatch.RunWake> runWakes;
    @Autowired
    dev.ringzero.agents.runs.AgentRuns agentRuns;
    @Autowired
    javax.sql.DataSource dataSource;
    @Autowired
    dev.ringzero.agents.AgentStore agents;
    @Autowired
    org.springframework.transaction.PlatformTransactionManager transactionManager;
    @Autowired
    dev.ringzero.agents.runs.EventBacklog backlog;

    @BeforeEach
    void everyShakeCounts() {
        bot.shakeCooldown(Duration.ZERO);
    }

    private String createAgent(String definition) {
        Response created = alice.post("/api/v1/gadget-agents", definition);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.json().path("id").asText();
    }

    private List<JsonNode> runs(String agentId) {
        return alice.get("/api/v1/gadget-agents/" + agentId + "/runs").json().findParents("status");
    }

    private List<String> decisions(String agentId) {
        return alice.get("/api/v1/gadget-agents/" + agentId + "/decisions").json().findValuesAsText("reason");
    }

    private List<String> inbox() {
        return alice.get("/api/v1/inbox").json().findValuesAsText("text");
    }

    @Test
    void aHardShakePlaysTheBarkOnceAndTheRunSucceeds() {
        String agentId = createAgent(Definitions.barkWhenShakenHard(bot.gadgetId(), null));

        bot.shake("hard");

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> runs(agentId).stream()
                .anyMatch(run -> run.path("status").asText().equals("succeeded")));
        assertThat(bot.invocations()).singleElement().satisfies(invocation -> {
            assertThat(invocation.command()).isEqualTo("speaker.play_url");
            assertThat(invocation.params()).containsEntry("url", "https://example.org/bark.mp3?s=hard");
        });
        JsonNode run = alice.get("/api/v1/runs/" + runs(agentId).get(0).path("id").asText()).json();
        assertThat(run.at("/actions/0/outcome").asText()).isEqualTo("accepted");
        assertThat(run.path("triggerKind").asText()).isEqualTo("gadget.event");
        assertThat(decisions(agentId)).containsExactly("matched");
        assertThat(history.createHistoricProcessInstanceQuery().processDefinitionKey("agent-run")
                .processInstanceBusinessKey(run.path("id").asText()).count()).isEqualTo(1);
    }

    @Test
    void aGentleShakeIsFilteredOutAndStartsNoRun() {
        String agentId = createAgent(Definitions.barkWhenShakenHard(bot.gadgetId(), null));

        bot.shake("gentle");

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !decisions(agentId).isEmpty());
        assertThat(decisions(agentId)).containsExactly("filtered_out");
        assertThat(runs(agentId)).isEmpty();
        assertThat(bot.invocations()).isEmpty();
    }

    @Test
    void theSameEventIdPublishedThreeTimesRunsOnce() throws InterruptedException {
        String agentId = createAgent(Definitions.barkWhenShakenHard(bot.gadgetId(), null));

        String eventId = bot.emitEvent("shaken", Map.of("peak_g", 2.5, "strength", "hard"));
        bot.emitEvent(eventId, "shaken", Map.of("peak_g", 2.5, "strength", "hard"));
        bot.emitEvent(eventId, "shaken", Map.of("peak_g", 2.5, "strength", "hard"));

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> bot.invocations().size() == 1);
        Awaitility.await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                .until(() -> runs(agentId).size() == 1);
        assertThat(bot.invocations()).hasSize(1);
        // every event the lanes took counts off the node's backlog, the duplicates too: llm replies wait for none
        assertThat(backlog.awaitQuiet(Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void anEventNoAgentListensForGoesToTheInbox() {
        createAgent(Definitions.barkWhenShakenHard(bot.gadgetId(), null));

        bot.pickUp();

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> inbox().stream()
                .anyMatch(text -> text.startsWith("[Gadget event] " + bot.gadgetId() + ": picked_up")));
    }

    @Test
    void anAgentInCooldownRecordsCooldownAndNothingGoesToTheInbox() {
        String agentId = createAgent(Definitions.showTextWhenShaken(bot.gadgetId(),
                "{\"runsPerHour\":100,\"cooldownSeconds\":3600}", "parallel"));

        bot.emitEvent("shaken", Map.of("strength", "hard", "peak_g", 2.2));
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> bot.invocations().size() == 1);
        bot.emitEvent("shaken", Map.of("strength", "gentle", "peak_g", 1.1));

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> decisions(agentId).contains("cooldown"));
        assertThat(runs(agentId)).extracting(run -> run.path("status").asText()).contains("cooldown");
        assertThat(inbox()).noneMatch(text -> text.contains("shaken"));
        assertThat(bot.invocations()).hasSize(1);
    }

    @Test
    void anExplicitRunIsNotBlockedByTheProactiveBudget() {
        String agentId = createAgent(Definitions.showTextWhenShaken(bot.gadgetId(),
                "{\"runsPerHour\":1,\"cooldownSeconds\":3600}", "parallel"));
        bot.emitEvent("shaken", Map.of("strength", "hard", "peak_g", 2.2));
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> bot.invocations().size() == 1);

        Response started = alice.post("/api/v1/gadget-agents/" + agentId + "/runs", "{}");

        assertThat(started.status()).isEqualTo(202);
        // started in the request's transaction: its action is on its way by the time it answers
        assertThat(started.json().path("status").asText()).isEqualTo("running");
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> bot.invocations().size() == 2);
    }

    @Test
    void anotherOwnerGets404OnRunsDecisionsAndExplicitRuns() {
        String agentId = createAgent(Definitions.barkWhenShakenHard(bot.gadgetId(), null));
        Api bob = Api.at(port).newOwner("bob");

        assertThat(bob.get("/api/v1/gadget-agents/" + agentId + "/runs").status()).isEqualTo(404);
        assertThat(bob.get("/api/v1/gadget-agents/" + agentId + "/decisions").status()).isEqualTo(404);
        assertThat(bob.post("/api/v1/gadget-agents/" + agentId + "/runs", "{}").status()).isEqualTo(404);
        String runId = alice.post("/api/v1/gadget-agents/" + agentId + "/runs", "{}").json().path("runId").asText();
        assertThat(bob.get("/api/v1/runs/" + runId).status()).isEqualTo(404);
    }

    @Test
    void anEventNameWithQuotesReachesTheInboxIntact() {
        String name = "odd\"name";

        bot.emitEvent(name, Map.of("strength", "hard"));

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> inbox().stream()
                .anyMatch(text -> text.startsWith("[Gadget event] " + bot.gadgetId() + ": " + name)));
        String data = alice.get("/api/v1/inbox").json().get(0).path("data").asText();
        JsonNode fields = assertDoesNotThrow(() -> new com.fasterxml.jackson.databind.ObjectMapper().readTree(data));
        assertThat(fields.path("event").asText()).isEqualTo(name);
        assertThat(fields.at("/data/strength").asText()).isEqualTo("hard");
    }

    @Test
    void routingHoldsTheOwnersListeningAgentsLockedUntilItsTransactionEnds() throws Exception {
        String agentId = createAgent(Definitions.showTextWhenShaken(bot.gadgetId(), "{}", "parallel"));
        String otherOwner = "someone-else-" + System.nanoTime();
        org.springframework.transaction.support.TransactionTemplate transactions =
                new org.springframework.transaction.support.TransactionTemplate(transactionManager);

        transactions.executeWithoutResult(status -> {
            assertThat(agents.lockListening(bot.gadgetId(), otherOwner, "shaken")).isEmpty();
            assertThat(agents.lockListening(bot.gadgetId(), alice.accountId(), "shaken"))
                    .extracting(dev.ringzero.agents.AgentStore.Agent::id).containsExactly(agentId);
            // held from routing on, so admission's lock (next) is the row as routing read it
            assertThat(lockableElsewhere(agentId)).isFalse();
            assertThat(agents.lock(agentId)).get().extracting(dev.ringzero.agents.AgentStore.Agent::id)
                    .isEqualTo(agentId);
        });

        assertThat(lockableElsewhere(agentId)).isTrue();
    }

    /** Whether another connection can lock the agent's row at once (its own short transaction). */
    private boolean lockableElsewhere(String agentId) {
        try (java.sql.Connection c = dataSource.getConnection();
             java.sql.PreparedStatement s = c.prepareStatement("select id from rz_agent where id = ? for update nowait")) {
            c.setAutoCommit(false);
            s.setString(1, agentId);
            s.executeQuery().close();
            c.rollback();
            return true;
        } catch (java.sql.SQLException locked) {
            return false;
        }
    }

    @Test
    void anEventThatWaitedLongerThanTheShedBoundIsShedVisiblyAndStartsNoRun() {
        String agentId = createAgent(Definitions.showTextWhenShaken(bot.gadgetId(), "{\"runsPerHour\":100}", "parallel"));
        EventAdmission.Admitted admitted = (EventAdmission.Admitted) admission.admit(new IncomingEvent(bot.gadgetId(),
                alice.accountId(), "late-" + System.nanoTime(), "shaken",
                new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode().put("strength", "hard"), "mqtt"));
        TriggerRouter.StoredEvent stored = admitted.event();

        // as if it had waited 30 s in the routing lane (the default bound is 5 s)
        router.routeQuietly(new TriggerRouter.StoredEvent(stored.id(), stored.gadgetId(), stored.ownerId(),
                stored.deviceEventId(), stored.name(), stored.data(), stored.receivedAt().minusSeconds(30)));

        assertThat(decisions(agentId)).containsExactly("shed_overload");
        assertThat(runs(agentId)).isEmpty();
        assertThat(jdbc.sql("select state from rz_event where id = ?").param(stored.id()).query(String.class).single())
                .isEqualTo("shed");
        router.recover(); // a shed event is settled: never routed late by the recovery sweep either
        assertThat(runs(agentId)).isEmpty();
        assertThat(bot.invocations()).isEmpty();
    }

    @Test
    void aRunOutOfMaxRunSecondsEndsFailedAndSendsNoFurtherAction() {
        String agentId = createAgent("""
                {"apiVersion":"ringzero/v1","name":"two reads","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"invoke"}],
                 "actions":[{"gadget":"%1$s","command":"imu.read","params":{}},
                            {"gadget":"%1$s","command":"imu.read","params":{}}],
                 "allow":{"commands":["imu.read"]},"budget":{"runsPerHour":10,"maxRunSeconds":1}}
                """.formatted(bot.gadgetId()));
        bot.setSilent(true); // the first read is never answered: the run's 1 s ends before its 2 s timeout

        String runId = Agents.runNow(alice, agentId);

        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> "failed".equals(
                Agents.run(alice, runId).path("status").asText()));
        JsonNode run = Agents.run(alice, runId);
        assertThat(run.path("reason").asText()).isEqualTo("max_run_seconds");
        assertThat(run.at("/actions/0/outcome").asText()).isEqualTo("unknown");
        assertThat(run.at("/actions/1/outcome").isMissingNode() || run.at("/actions/1/outcome").isNull()).isTrue();
        assertThat(bot.invocations()).hasSize(1);
    }

    @Test
    void anAnswerToAnotherInvocationDoesNotWakeTheRunsWait() {
        String agentId = createAgent(Agents.imuRead(bot.gadgetId(), "imu", "parallel"));
        bot.setSilent(true); // the run waits for its own answer (2 s timeout + 1 s grace)
        String runId = Agents.runNow(alice, agentId);

        // as if the answer to an earlier action came in while this wait had already begun (a rules
        // run's answer wakes it in the answer's own transaction)
        assertThat(agentRuns.isSession(runId)).isFalse();
        assertThat(runWakes).isNotEmpty();
        runWakes.forEach(wake -> wake.answered("an-earlier-invocation", runId,
                new dev.ringzero.dispatch.Outcome.Unknown("an-earlier-invocation"), false));

        assertThat(Agents.run(alice, runId).path("status").asText()).isEqualTo("running");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> "failed".equals(
                Agents.run(alice, runId).path("status").asText()));
        assertThat(Agents.run(alice, runId).at("/actions/0/outcome").asText()).isEqualTo("unknown");
    }

    @Test
    void eventsThatArrivedTogetherAreAdmittedAndRoutedInOneBatchAndAcknowledgedOnlyAfterItsCommit() {
        String agentId = createAgent(Definitions.showTextWhenShaken(bot.gadgetId(), "{\"runsPerHour\":100}", "parallel"));
        java.util.List<Runnable> lane = new java.util.ArrayList<>();
        // what another connection sees of each event at the moment it is acknowledged to the broker
        java.util.Map<String, String> seenWhenAcknowledged = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.List<String> eventIds = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) { // parallel: at most 4 at once
            String eventId = "queued-" + i + "-" + System.nanoTime();
            eventIds.add(eventId);
            admission.admitSoon(shaken(eventId, i), () -> seenWhenAcknowledged.put(eventId, committedState(eventId)),
                    () -> { }, lane::add);
        }
        assertThat(lane).as("one worker drains the gadget's lane").hasSize(1);
        assertThat(stored(eventIds)).isEmpty();

        lane.get(0).run(); // the worker's turn takes all four

        assertThat(runs(agentId)).as("one batch admitted and routed them all").hasSize(4);
        assertThat(seenWhenAcknowledged).as("acknowledged once committed, each with its runs")
                .containsOnlyKeys(eventIds).containsValues("routed").doesNotContainValue("none");
        assertThat(decisions(agentId)).hasSize(4).containsOnly("matched");
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> runs(agentId).stream()
                .filter(run -> run.path("status").asText().equals("succeeded")).count() == 4);
        assertThat(bot.invocations()).hasSize(4);
    }

    /** The event's state as a connection of its own sees it: only what is committed. */
    private String committedState(String deviceEventId) {
        try (java.sql.Connection connection = dataSource.getConnection();
                java.sql.PreparedStatement query = connection.prepareStatement(
                        "select state from rz_event where gadget_id = ? and device_event_id = ?")) {
            query.setString(1, bot.gadgetId());
            query.setString(2, deviceEventId);
            try (java.sql.ResultSet row = query.executeQuery()) {
                return row.next() ? row.getString(1) : "none";
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aLaneWithMoreThanABatchGivesItsWorkerBackAndQueuesItsNextTurn() {
        java.util.List<Runnable> workers = new java.util.ArrayList<>();
        java.util.List<String> acknowledged = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.List<String> eventIds = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) { // one gadget: one lane; a batch is 8
            String eventId = "many-" + i + "-" + System.nanoTime();
            eventIds.add(eventId);
            admission.admitSoon(new IncomingEvent(bot.gadgetId(), alice.accountId(), eventId, "picked_up",
                    new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode().put("seq", i), "mqtt"),
                    () -> acknowledged.add(eventId), () -> { }, workers::add);
        }
        assertThat(workers).hasSize(1);

        workers.get(0).run();
        assertThat(acknowledged).as("one batch, then the worker is handed back").hasSize(8);
        assertThat(workers).as("the lane's next turn is queued").hasSize(2);
        workers.get(1).run();

        assertThat(acknowledged).containsExactlyElementsOf(eventIds); // in the order they arrived
        assertThat(stored(eventIds)).hasSize(10).containsOnly("routed");
        assertThat(workers).hasSize(2);
    }

    @Test
    void anEventRepeatedInOneBatchIsStoredOnceAndBothCopiesAreAcknowledged() {
        String agentId = createAgent(Definitions.showTextWhenShaken(bot.gadgetId(), "{\"runsPerHour\":100}", "parallel"));
        java.util.List<Runnable> lane = new java.util.ArrayList<>();
        java.util.List<String> acknowledged = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.List<String> admittedOnes = new java.util.concurrent.CopyOnWriteArrayList<>();
        String eventId = "twice-" + System.nanoTime();
        admission.admitSoon(shaken(eventId, 1), () -> acknowledged.add("first"), () -> admittedOnes.add("first"),
                lane::add);
        admission.admitSoon(shaken(eventId, 1), () -> acknowledged.add("again"), () -> admittedOnes.add("again"),
                lane::add);

        lane.forEach(Runnable::run);

        assertThat(acknowledged).containsExactlyInAnyOrder("first", "again");
        assertThat(admittedOnes).as("only the first copy is admitted").containsExactly("first");
        assertThat(stored(java.util.List.of(eventId))).containsExactly("routed");
        assertThat(runs(agentId)).hasSize(1);
    }

    @Test
    void anEventThatWaitedInTheLaneLongerThanTheShedBoundIsStoredShedAndAcknowledged() {
        String agentId = createAgent(Definitions.showTextWhenShaken(bot.gadgetId(), "{\"runsPerHour\":100}", "parallel"));
        java.util.List<String> acknowledged = new java.util.concurrent.CopyOnWriteArrayList<>();
        String eventId = "late-in-lane-" + System.nanoTime();

        // as if it had waited 30 s for a worker (the default bound is 5 s)
        admission.admitSoon(shaken(eventId, 1), java.time.Instant.now().minusSeconds(30),
                () -> acknowledged.add(eventId), () -> { }, Runnable::run);

        assertThat(acknowledged).containsExactly(eventId);
        assertThat(stored(java.util.List.of(eventId))).containsExactly("shed");
        assertThat(decisions(agentId)).containsExactly("shed_overload");
        router.recover(); // a shed event is settled: never routed late by the recovery sweep either
        assertThat(runs(agentId)).isEmpty();
        assertThat(bot.invocations()).isEmpty();
    }

    @Test
    void anEventThatCannotBeStoredIsDroppedAloneAndTheRestOfItsBatchIsRouted() {
        String agentId = createAgent(Definitions.showTextWhenShaken(bot.gadgetId(), "{\"runsPerHour\":100}", "parallel"));
        java.util.List<Runnable> lane = new java.util.ArrayList<>();
        java.util.List<String> acknowledged = new java.util.concurrent.CopyOnWriteArrayList<>();
        String good = "good-" + System.nanoTime();
        String bad = "x".repeat(100); // longer than any device event id the link lets through
        admission.admitSoon(shaken(good, 1), () -> acknowledged.add("good"), () -> { }, lane::add);
        admission.admitSoon(shaken(bad, 2), () -> acknowledged.add("bad"), () -> { }, lane::add);

        lane.get(0).run(); // the batch fails on the bad one, then each is tried alone

        assertThat(acknowledged).as("the broker is not asked to deliver a poisoned event for ever")
                .containsExactlyInAnyOrder("good", "bad");
        assertThat(stored(java.util.List.of(good, bad))).containsExactly("routed");
        assertThat(runs(agentId)).hasSize(1);
    }

    @Test
    void anEventItsBoardsLaterEventShowsToBeStaleIsShedAndTheLaterOneRuns() {
        String agentId = createAgent(Definitions.showTextWhenShaken(bot.gadgetId(), "{\"runsPerHour\":100}", "parallel"));
        java.util.List<Runnable> lane = new java.util.ArrayList<>();
        java.util.List<String> acknowledged = new java.util.concurrent.CopyOnWriteArrayList<>();
        String stale = "stale-" + System.nanoTime();
        String fresh = "fresh-" + System.nanoTime();
        // after an outage the broker delivers what it kept in one burst: both arrive now, but the
        // board's clock says the first was sent 30 s before the second (the bound is 5 s); then a
        // copy of the first comes again (MQTT DUP), which is no sign of the clock going backwards
        admission.admitSoon(shaken(stale, 1, 1_000L, false), () -> acknowledged.add(stale), () -> { }, lane::add);
        admission.admitSoon(shaken(fresh, 2, 31_000L, false), () -> acknowledged.add(fresh), () -> { }, lane::add);
        admission.admitSoon(shaken(stale, 1, 1_000L, true), () -> acknowledged.add("copy"), () -> { }, lane::add);

        lane.get(0).run();

        assertThat(acknowledged).containsExactlyInAnyOrder(stale, fresh, "copy");
        assertThat(stored(java.util.List.of(stale, fresh))).containsExactly("shed", "routed");
        assertThat(decisions(agentId)).contains("shed_overload");
        assertThat(runs(agentId)).hasSize(1);
    }

    @Test
    void eventsTheBoardsClockPutsWithinTheBoundOrOfAnotherClockAreRouted() {
        String agentId = createAgent(Definitions.showTextWhenShaken(bot.gadgetId(), "{\"runsPerHour\":100}", "parallel"));
        java.util.List<Runnable> lane = new java.util.ArrayList<>();
        String[] ids = {"a-" + System.nanoTime(), "b-" + System.nanoTime(), "c-" + System.nanoTime(),
                "d-" + System.nanoTime(), "e-" + System.nanoTime()};
        // 100 ms apart by the board's clock (the bound is 5 s)
        admission.admitSoon(shaken(ids[0], 1, 900_000L, false), () -> { }, () -> { }, lane::add);
        admission.admitSoon(shaken(ids[1], 2, 900_100L, false), () -> { }, () -> { }, lane::add);
        lane.get(0).run();
        // a second connection with a clock of its own takes turns with the board: its event, waiting
        // behind the board's next one, would look 900 s old by the board's clock
        admission.admitSoon(shaken(ids[2], 3, 900_200L, false), () -> { }, () -> { }, lane::add);
        admission.admitSoon(shaken(ids[3], 4, 1_000L, false), () -> { }, () -> { }, lane::add);
        admission.admitSoon(shaken(ids[4], 5, 900_300L, false), () -> { }, () -> { }, lane::add);
        lane.get(1).run();

        assertThat(lane).hasSize(2);
        assertThat(stored(java.util.List.of(ids))).containsExactly("routed", "routed", "routed", "routed", "routed");
        assertThat(decisions(agentId)).doesNotContain("shed_overload");
        assertThat(runs(agentId)).hasSize(5);
    }

    private IncomingEvent shaken(String eventId, int seq) {
        return new IncomingEvent(bot.gadgetId(), alice.accountId(), eventId, "shaken",
                new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode().put("strength", "hard")
                        .put("seq", seq), "mqtt");
    }

    /** As {@link #shaken(String, int)}, with the board's clock when it sent it, perhaps delivered again. */
    private IncomingEvent shaken(String eventId, int seq, long uptimeMs, boolean redelivered) {
        IncomingEvent event = shaken(eventId, seq);
        return new IncomingEvent(event.gadgetId(), event.ownerId(), event.deviceEventId(), event.name(), event.data(),
                event.source(), new IncomingEvent.BoardTime(uptimeMs, redelivered));
    }

    /** The states of whichever of these device events are stored. */
    private java.util.List<String> stored(java.util.List<String> deviceEventIds) {
        return deviceEventIds.stream().flatMap(id -> jdbc.sql(
                "select state from rz_event where gadget_id = ? and device_event_id = ?")
                .params(bot.gadgetId(), id).query(String.class).list().stream()).toList();
    }
}
