package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Optional;

import dev.ringzero.SqlDialect;
import dev.ringzero.support.RealServices;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/** An audit entry and a journal line written together, in both databases' forms. */
class LogRowsTest {

    private static final LogRows.Row AUDIT = new LogRows.Row("insert into rz_audit(intent, detail) values (?, ?)",
            "speaker.say", "completed");
    private static final LogRows.Row JOURNAL = new LogRows.Row("insert into rz_journal(kind, text) values (?, ?)",
            "action.auto", "speaker.say ran without asking (completed)");

    @Test
    void onPostgresqlOneStatementWritesBoth() throws SQLException {
        RealServices.start();
        try (Connection connection = DriverManager.getConnection(RealServices.jdbcUrl(), RealServices.jdbcUser(), "")) {
            // temporary tables of the same names hide the schema's for this connection only
            writesBoth(connection, SqlDialect.POSTGRESQL, "create temporary table");
        }
    }

    @Test
    void onH2BothAreWrittenOneAfterTheOther() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:h2:mem:logs-" + java.util.UUID.randomUUID(),
                "sa", "")) {
            writesBoth(connection, SqlDialect.H2, "create table");
        }
    }

    private static void writesBoth(Connection connection, SqlDialect dialect, String create) {
        JdbcClient jdbc = JdbcClient.create(new SingleConnectionDataSource(connection, true));
        jdbc.sql(create + " rz_audit (intent varchar(120), detail varchar(500))").update();
        jdbc.sql(create + " rz_journal (kind varchar(64), text varchar(2000))").update();
        LogRows underTest = new LogRows(jdbc, dialect);

        underTest.append(AUDIT, Optional.of(JOURNAL));
        underTest.append(AUDIT, Optional.empty()); // a gate of the owner's own: no agent, no journal

        assertThat(jdbc.sql("select intent || ':' || detail from rz_audit").query(String.class).list())
                .containsExactly("speaker.say:completed", "speaker.say:completed");
        assertThat(jdbc.sql("select kind || ':' || text from rz_journal").query(String.class).list())
                .containsExactly("action.auto:speaker.say ran without asking (completed)");
    }
}
