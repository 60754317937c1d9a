package dev.ringzero.rehearsal;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.Batches;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.llm.LlmSessions;
import dev.ringzero.agents.runs.RunViews;
import dev.ringzero.dispatch.AnswerLane;
import dev.ringzero.gadgets.GadgetStore;
import dev.ringzero.router.EventAdmission;
import dev.ringzero.support.PlatformTest;
import dev.ringzero.support.RealServices;
import dev.ringzero.support.ScriptedModel;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.health.Status;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The hot path rehearsed before a node reports healthy: it runs the whole path (every run
 * succeeds once its answer is settled) and leaves nothing behind, in the database or on the link.
 */
class RehearsalTest extends PlatformTest {

    @Autowired TransactionTemplate transactions;
    @Autowired JdbcClient jdbc;
    @Autowired AgentService agents;
    @Autowired GadgetStore gadgets;
    @Autowired EventAdmission admission;
    @Autowired AnswerLane answers;
    @Autowired Batches batch;
    @Autowired ObjectMapper json;
    @Autowired Clock clock;
    @Autowired RunViews runs;
    @Autowired LlmSessions llm;
    @Autowired Rehearsal configured;

    private Rehearsal rehearsal(int events, int sessions, Batches batches) {
        return new Rehearsal(transactions, jdbc, agents, gadgets, admission, answers, runs, llm, batches, json, clock,
                events, 50, sessions);
    }

    @Test
    void theRehearsalRunsTheWholePathAndLeavesNothingBehind() throws Exception {
        Timestamp before = Timestamp.from(Instant.now().minusSeconds(1));
        List<String> published = new CopyOnWriteArrayList<>();
        MqttClient listener = new MqttClient(RealServices.mqttUrl(), "ringzero-platform-rehearsal-test",
                new MemoryPersistence());
        MqttConnectOptions options = new MqttConnectOptions();
        options.setUserName("ringzero-platform");
        options.setPassword(RealServices.MQTT_SERVICE_PASSWORD.toCharArray());
        listener.connect(options);
        listener.subscribe("ringzero/v1/gadgets/#", 1, (topic, message) -> {
            if (topic.contains("rehearsal-")) {
                published.add(topic);
            }
        });
        // the stand-in sessions' instructions: a request to the model would be recorded here
        ScriptedModel.Script model = ScriptedModel.script("Greet the person on the screen, once.");
        Rehearsal rehearsal = rehearsal(120, 60, batch);
        assertThat(rehearsal.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);

        rehearsal.rehearse();

        Rehearsal.Done done = (Rehearsal.Done) rehearsal.stage();
        assertThat(done.failure()).isNull();
        assertThat(done.events()).isEqualTo(120);
        assertThat(done.succeeded()).isEqualTo(120);
        assertThat(rehearsal.health().getStatus()).isEqualTo(Status.UP);
        assertThat(rehearsal.health().getDetails()).containsEntry("succeeded", 120);
        // each session's run succeeded only if both its turns were played and its command answered
        assertThat(done.sessions()).isEqualTo(60);
        assertThat(done.sessionsSucceeded()).isEqualTo(60);
        assertThat(rehearsal.health().getDetails()).containsEntry("sessionsSucceeded", 60);
        assertThat(model.requests()).as("requests to the model").isEmpty();

        for (String table : List.of("rz_account where id", "rz_gadget where id", "rz_agent where owner_id",
                "rz_run where owner_id", "rz_event where gadget_id", "rz_invocation where gadget_id",
                "rz_llm_turn where owner_id", "rz_llm_owner_day where owner_id")) {
            assertThat(jdbc.sql("select count(*) from " + table + " like 'rehearsal-%'").query(Integer.class).single())
                    .as(table).isZero();
        }
        // an instance the engine committed on its own would have no run on record (that rolled back)
        assertThat(jdbc.sql("select count(*) from act_hi_procinst h where h.start_time_ >= ? "
                        + "and h.proc_def_key_ = 'agent-run' "
                        + "and not exists (select 1 from rz_run r where r.id = h.business_key_)")
                .param(before).query(Integer.class).single()).isZero();
        Thread.sleep(300); // what would have left after a commit is on its way by now
        listener.disconnect();
        listener.close();
        assertThat(published).isEmpty();
    }

    @Test
    void aRoundThatFailsEndsTheRehearsalAndTheNodeReportsHealthyAllTheSame() {
        Batches away = new Batches() {
            @Override
            public <T> void run(List<T> items, java.util.function.Consumer<T> work,
                    java.util.function.BiConsumer<T, RuntimeException> failed) {
                throw new IllegalStateException("the database is away");
            }
        };
        Rehearsal rehearsal = rehearsal(120, 60, away);

        rehearsal.rehearse();

        Rehearsal.Done done = (Rehearsal.Done) rehearsal.stage();
        assertThat(done.events()).isZero();
        assertThat(done.sessions()).isZero();
        assertThat(done.failure()).contains("the database is away");
        assertThat(rehearsal.health().getStatus()).isEqualTo(Status.UP);
        assertThat(rehearsal.health().getDetails()).containsKey("stopped");
        assertThat(jdbc.sql("select count(*) from rz_agent where owner_id like 'rehearsal-%'").query(Integer.class)
                .single()).isZero();
    }

    @Test
    void aRunWithNoTurnWaitingForItsReplyIsNotPlayed() {
        assertThat(llm.rehearseTurn("no-such-run", null, null)).isFalse();
    }

    @Test
    void withNoEventsSetTheNodeIsHealthyAtOnce() {
        assertThat(configured.stage()).isInstanceOf(Rehearsal.Done.class);
        assertThat(configured.health().getStatus()).isEqualTo(Status.UP);
    }
}
