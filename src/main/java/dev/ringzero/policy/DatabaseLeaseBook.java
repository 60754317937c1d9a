package dev.ringzero.policy;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import dev.ringzero.kernel.LeaseBook;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The mover leases in the shared database ({@code rz_mover_lease}, a row per gadget ever moved):
 * every node of a cluster reads and writes the same entries, so two nodes never grant one gadget
 * to two movers. A change is a transaction of its own ({@link DatabaseBook}), committed before the
 * move is recorded; the lease is bounded anyway (a lease whose step rolled back lapses by its
 * bound, as one whose answer never came). Moves are rare next to events; the cost is a locking
 * read and a write per change, nothing on the path of an event that moves nothing.
 */
final class DatabaseLeaseBook extends DatabaseBook<LeaseBook.Entry> implements LeaseBook {

    DatabaseLeaseBook(JdbcClient jdbc, PlatformTransactionManager transactions) {
        super(jdbc, transactions, "rz_mover_lease", "ticket", "expires_at");
    }

    @Override
    Optional<Entry> entry(String gadgetId, ResultSet row) throws SQLException {
        String ticket = row.getString(1);
        Timestamp until = row.getTimestamp(2);
        return ticket == null || until == null ? Optional.empty() : Optional.of(new Entry(ticket, until.toInstant()));
    }

    @Override
    List<Object> values(Optional<Entry> entry) {
        return Arrays.asList(entry.map(Entry::ticket).orElse(null),
                entry.map(held -> Timestamp.from(held.expiresAt())).orElse(null));
    }
}
