package dev.ringzero.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Floor B, measured in the same run on the same PostgreSQL: one durable commit (insert of one small
 * row, then commit, {@code synchronous_commit = on}) from one connection, open loop at the event
 * rate. Latency is counted from the scheduled instant, so a commit that makes the next one wait
 * shows up as queueing instead of hiding.
 */
final class PgFloor {

    private PgFloor() {
    }

    static ObjectNode run(String jdbcUrl, String user, String password, double rate, int seconds) throws SQLException {
        int count = (int) Math.round(rate * seconds);
        Latency latency = new Latency();
        try (Connection c = DriverManager.getConnection(jdbcUrl, user, password)) {
            try (Statement s = c.createStatement()) {
                s.execute("create table if not exists bench_floor_commit (id bigserial primary key, "
                        + "payload text not null, at timestamptz not null default now())");
                s.execute("set synchronous_commit to on");
            }
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement("insert into bench_floor_commit(payload) values (?)")) {
                // warm the statement and the connection
                for (int i = 0; i < 50; i++) {
                    insert.setString(1, "warm-" + i);
                    insert.executeUpdate();
                    c.commit();
                }
                OpenLoop loop = new OpenLoop();
                double interval = 1e9 / rate;
                loop.run(rate, count, k -> {
                    long due = loop.start() + (long) (k * interval);
                    try {
                        insert.setString(1, "commit-" + k);
                        insert.executeUpdate();
                        c.commit();
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                    latency.recordNanos(System.nanoTime() - due);
                });
                ObjectNode out = latency.toJson();
                out.put("rate_per_s", rate);
                out.put("seconds", seconds);
                out.put("synchronous_commit", "on");
                return out;
            } finally {
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("drop table if exists bench_floor_commit");
                }
            }
        }
    }
}
