package dev.ringzero.gates;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * H2's version of the PostgreSQL trigger that keeps {@code rz_audit} and {@code rz_journal}
 * append-only (changeSet {@code 105-append-only-h2}): any UPDATE or DELETE fails.
 */
public class AppendOnlyTrigger implements org.h2.api.Trigger {

    private String table = "table";

    @Override
    public void init(Connection conn, String schemaName, String triggerName, String tableName, boolean before,
            int type) {
        this.table = tableName;
    }

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
        throw new SQLException(table.toLowerCase(java.util.Locale.ROOT) + " is append-only", "42000");
    }
}
