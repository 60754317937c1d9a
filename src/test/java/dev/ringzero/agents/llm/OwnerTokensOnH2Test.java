package dev.ringzero.agents.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;

import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.ringzero.SqlDialect;

/**
 * The zero-setup database (H2) keeps each owner's tokens per UTC day as PostgreSQL does (where
 * LlmAgentTest exercises it): replies add to the day of their reply, a day's first reply creates
 * its row, and the changeset fills the table from the turns recorded before it.
 */
class OwnerTokensOnH2Test {

    private static final String URL = "jdbc:h2:mem:owner-tokens;DB_CLOSE_DELAY=-1";
    private static JdbcClient jdbc;
    private static OwnerTokens underTest;

    @BeforeAll
    static void database() throws Exception {
        migrate();
        JdbcDataSource source = new JdbcDataSource();
        source.setURL(URL);
        source.setUser("sa");
        jdbc = JdbcClient.create(source);
        underTest = new OwnerTokens(jdbc, SqlDialect.H2);
    }

    private static void migrate() throws Exception {
        try (Connection connection = DriverManager.getConnection(URL, "sa", "")) {
            Database database = DatabaseFactory.getInstance()
                    .findCorrectDatabaseImplementation(new JdbcConnection(connection));
            try (Liquibase liquibase = new Liquibase("db/changelog/db.changelog-master.yaml",
                    new ClassLoaderResourceAccessor(), database)) {
                liquibase.update("");
            }
        }
    }

    private static void turn(String runId, int turn, String owner, Instant repliedAt, int in, int out) {
        jdbc.sql("insert into rz_llm_turn(run_id, turn, owner_id, status, asked_at, replied_at, tokens_in, tokens_out) "
                        + "values (?, ?, ?, 'ready', ?, ?, ?, ?)")
                .params(runId, turn, owner, java.sql.Timestamp.from(repliedAt.minusSeconds(2)),
                        java.sql.Timestamp.from(repliedAt), in, out).update();
    }

    @Test
    void repliesAddToTheOwnersDayOfTheirReply() {
        Instant morning = Instant.parse("2026-12-06T07:00:00Z");
        Instant lateAtNight = Instant.parse("2026-12-06T23:59:59Z");
        Instant nextDay = Instant.parse("2026-12-07T00:00:01Z");
        turn("run-a", 1, "carol", morning, 0, 0);
        turn("run-a", 2, "carol", lateAtNight, 0, 0);
        turn("run-b", 1, "dave", morning, 0, 0);

        underTest.charge("run-a", 1, 300, morning);
        underTest.charge("run-a", 2, 40, lateAtNight);
        underTest.charge("run-a", 2, 25, nextDay);
        underTest.charge("run-b", 1, 7, morning);
        underTest.charge("run-b", 1, 0, morning);

        assertThat(underTest.spentOn("carol", morning)).isEqualTo(340);
        assertThat(underTest.spentOn("carol", nextDay)).isEqualTo(25);
        assertThat(underTest.spentOn("dave", morning)).isEqualTo(7);
        assertThat(underTest.spentOn("erin", morning)).isZero();
    }

    @Test
    void theChangesetFillsTheTableFromTheTurnsRecordedBeforeIt() throws Exception {
        Instant day = Instant.parse("2026-11-30T12:00:00Z");
        Instant dayAfter = Instant.parse("2026-12-01T00:30:00Z");
        turn("run-old-1", 1, "frank", day, 100, 20);
        turn("run-old-1", 2, "frank", day.plusSeconds(5), 50, 5);
        turn("run-old-2", 1, "frank", dayAfter, 9, 1);
        // as if the table came with this version: taken away, then the changeset run again
        jdbc.sql("drop table rz_llm_owner_day").update();
        jdbc.sql("delete from databasechangelog where id = '021-llm-owner-day'").update();

        migrate();

        assertThat(underTest.spentOn("frank", day)).isEqualTo(175);
        assertThat(underTest.spentOn("frank", dayAfter)).isEqualTo(10);
    }
}
