package dev.ringzero.gates;

import java.util.Optional;
import java.util.stream.Stream;

import dev.ringzero.SqlDialect;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Rows of the append-only logs ({@code rz_audit}, {@code rz_journal}) written together: a run's
 * command that ran without a human is both audited and journaled, once per rules run. PostgreSQL
 * writes both in one statement (the journal's insert as a data-modifying {@code with} of the
 * audit's); H2 writes them one after the other. Either way both are in the caller's transaction.
 */
@Component
class LogRows {

    /** One row to append: its insert statement and the values of its parameters. */
    record Row(String sql, Object... params) {

        void append(JdbcClient jdbc) {
            jdbc.sql(sql).params(params).update();
        }
    }

    private final JdbcClient jdbc;
    private final SqlDialect dialect;

    LogRows(JdbcClient jdbc, SqlDialect dialect) {
        this.jdbc = jdbc;
        this.dialect = dialect;
    }

    /** Appends {@code audit} and, if there is one, {@code journal}. */
    void append(Row audit, Optional<Row> journal) {
        if (journal.isEmpty()) {
            audit.append(jdbc);
        } else if (dialect == SqlDialect.POSTGRESQL) {
            jdbc.sql("with journaled as (" + journal.get().sql() + ") " + audit.sql())
                    .params(Stream.concat(Stream.of(journal.get().params()), Stream.of(audit.params())).toArray())
                    .update();
        } else {
            audit.append(jdbc);
            journal.get().append(jdbc);
        }
    }
}
