package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.junit.jupiter.api.Test;

/** The zero-setup database (H2) runs every changeSet and gets the append-only trigger too. */
class AppendOnlyOnH2Test {

    @Test
    void theChangelogRunsOnH2AndTheAuditRefusesUpdatesAndDeletes() throws Exception {
        String url = "jdbc:h2:mem:append-only;DB_CLOSE_DELAY=-1";
        Database database = DatabaseFactory.getInstance()
                .findCorrectDatabaseImplementation(new JdbcConnection(DriverManager.getConnection(url, "sa", "")));
        try (Liquibase liquibase = new Liquibase("db/changelog/db.changelog-master.yaml",
                new ClassLoaderResourceAccessor(), database)) {
            liquibase.update("");
        }
        try (Connection connection = DriverManager.getConnection(url, "sa", "")) {
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate("insert into rz_audit(at, owner_id, intent, disposition, actor) "
                        + "values (current_timestamp, 'alice', 'email.send', 'gated', 'default')");

                assertThatExceptionOfType(SQLException.class)
                        .isThrownBy(() -> statement.executeUpdate("update rz_audit set actor = 'alice'"))
                        .withMessageContaining("append-only");
                assertThatExceptionOfType(SQLException.class)
                        .isThrownBy(() -> statement.executeUpdate("delete from rz_audit"))
                        .withMessageContaining("append-only");
                try (var rows = statement.executeQuery("select count(*) from rz_audit")) {
                    rows.next();
                    assertThat(rows.getInt(1)).isEqualTo(1);
                }
            }
        }
    }
}
