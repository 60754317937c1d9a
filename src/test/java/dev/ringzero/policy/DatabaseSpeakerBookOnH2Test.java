package dev.ringzero.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.ringzero.kernel.Claim;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.SpeakerArbiter;
import dev.ringzero.kernel.SpeakerState;
import dev.ringzero.kernel.Turn;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import liquibase.integration.spring.SpringLiquibase;

/** The speaker floor's SQL on the zero-setup default's H2, from its own changelog. */
class DatabaseSpeakerBookOnH2Test {

    private static final Instant T0 = Instant.parse("2026-12-05T10:00:00Z");

    @Test
    void queuesHandsOnHoldsAndForgetsOnH2() throws Exception {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:speaker-floor-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        SpringLiquibase liquibase = new SpringLiquibase();
        liquibase.setDataSource(dataSource);
        liquibase.setChangeLog("classpath:db/changelog/013-speaker-floor.yaml");
        liquibase.setResourceLoader(new DefaultResourceLoader());
        liquibase.afterPropertiesSet();
        JdbcClient jdbc = JdbcClient.create(dataSource);
        DataSourceTransactionManager transactions = new DataSourceTransactionManager(dataSource);
        SpeakerArbiter speakers = new SpeakerArbiter(SpeakerArbiter.DEFAULT_STALE_AFTER,
                new DatabaseSpeakerBook(jdbc, transactions));
        DatabaseSpeakerHolds holds = new DatabaseSpeakerHolds(jdbc, transactions);

        assertThat(speakers.request("desk", "a", Priority.PROACTIVE, T0, T0)).isEqualTo(new Claim.Granted("a"));
        assertThat(speakers.request("desk", "b", Priority.PROACTIVE, T0, T0)).isEqualTo(new Claim.Queued("b", 1));
        assertThat(speakers.request("desk", "c", Priority.EXPLICIT, T0, T0)).isEqualTo(new Claim.Queued("c", 1));
        assertThat(speakers.waiting("desk")).containsExactly("c", "b");
        assertThat(speakers.playing("desk", "a", T0.plusSeconds(1))).isTrue();
        holds.put("inv-a", new SpeakerHolds.Hold("desk", "a", T0.plusSeconds(1)));
        assertThat(speakers.heldBefore(T0.plusSeconds(1))).isEmpty();
        assertThat(speakers.heldBefore(T0.plusSeconds(2))).containsExactly("desk");

        SpeakerHolds.Hold hold = holds.take("inv-a").orElseThrow();
        assertThat(holds.take("inv-a")).as("taken once").isEmpty();
        assertThat(speakers.release(hold.gadgetId(), hold.ticket(), T0.plusSeconds(2)))
                .containsExactly(new Turn.Granted("c"));
        assertThat(speakers.releaseHeldBefore("desk", T0.plusSeconds(3), T0.plusSeconds(3)))
                .containsExactly(new Turn.Granted("b"));
        assertThat(speakers.release("desk", "b", T0.plusSeconds(3))).isEmpty();
        assertThat(speakers.holder("desk")).isEmpty();
        assertThat(jdbc.sql("select count(*) from rz_speaker_line where state is null and held_since is null")
                .query(Integer.class).single()).as("a free speaker keeps its row, empty").isEqualTo(1);

        holds.put("inv-old", new SpeakerHolds.Hold("desk", "x", T0));
        holds.forgetBefore(T0.plusSeconds(1));
        assertThat(holds.take("inv-old")).isEmpty();
    }

    @Test
    void aStateRoundTripsThroughItsJson() {
        SpeakerState state = new SpeakerState("a", T0.plusNanos(1_234_567), true,
                List.of(new SpeakerState.Waiting("b", Priority.APPROVED_GATE, T0, 7)), 8);

        assertThat(DatabaseSpeakerBook.state("desk", DatabaseSpeakerBook.json(state))).contains(state);
        assertThat(DatabaseSpeakerBook.state("desk", "{\"holder\": 5")).as("unreadable: a free speaker").isEmpty();
    }
}
