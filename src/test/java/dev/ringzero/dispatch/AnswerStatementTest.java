package dev.ringzero.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.ringzero.SqlDialect;
import dev.ringzero.support.RealServices;
import org.junit.jupiter.api.Test;

/**
 * The one statement that records a device's answer and names its run, in both databases' dialects:
 * only the first answer from the invocation's own gadget is recorded.
 */
class AnswerStatementTest {

    private static final String TABLE = "(id varchar(36) primary key, gadget_id varchar(64) not null, "
            + "run_id varchar(36), outcome varchar(16) not null, error_code varchar(64), result text, "
            + "answered_at timestamp with time zone)";

    @Test
    void onPostgresql() throws SQLException {
        RealServices.start();
        try (Connection connection = DriverManager.getConnection(RealServices.jdbcUrl(), RealServices.jdbcUser(), "")) {
            // a temporary table of the same name hides the schema's for this connection only
            recordsTheFirstAnswerOnly(connection, "create temporary table rz_invocation " + TABLE);
        }
    }

    @Test
    void onH2() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:h2:mem:answers-" + java.util.UUID.randomUUID(), "sa", "")) {
            recordsTheFirstAnswerOnly(connection, "create table rz_invocation " + TABLE);
        }
    }

    private static void recordsTheFirstAnswerOnly(Connection connection, String createTable) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(createTable);
            statement.execute("insert into rz_invocation(id, gadget_id, run_id, outcome) values "
                    + "('inv-run', 'desk-1', 'run-1', 'sent'), ('inv-direct', 'desk-1', null, 'sent')");
        }
        String sql = Invocations.answerStatement(
                "H2".equals(connection.getMetaData().getDatabaseProductName()) ? SqlDialect.H2 : SqlDialect.POSTGRESQL);

        assertThat(answer(connection, sql, "inv-run", "desk-9", "completed")).as("another gadget's answer").isEmpty();
        assertThat(answer(connection, sql, "inv-run", "desk-1", "completed")).containsExactly("run-1");
        assertThat(answer(connection, sql, "inv-run", "desk-1", "failed")).as("a second answer").isEmpty();
        assertThat(answer(connection, sql, "inv-direct", "desk-1", "completed")).as("a direct command: no run")
                .containsExactly((String) null);
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("select outcome, result from rz_invocation where id = 'inv-run'")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo("completed");
            assertThat(rows.getString(2)).isEqualTo("{\"ok\":true}");
        }
    }

    /** The run ids the statement returned: one per recorded answer. */
    private static List<String> answer(Connection connection, String sql, String invocationId, String gadgetId,
            String outcome) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, outcome);
            statement.setString(2, null);
            statement.setString(3, "{\"ok\":true}");
            statement.setTimestamp(4, Timestamp.from(Instant.now()));
            statement.setString(5, invocationId);
            statement.setString(6, gadgetId);
            List<String> runs = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    runs.add(rows.getString(1));
                }
            }
            return runs;
        }
    }
}
