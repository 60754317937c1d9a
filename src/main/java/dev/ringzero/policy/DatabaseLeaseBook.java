package dev.ringzero.policy;

import java.sql.Timestamp;
import java.util.Optional;
import java.util.function.UnaryOperator;

import dev.ringzero.kernel.LeaseBook;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The mover leases in the shared database ({@code rz_mover_lease}, a row per gadget ever moved):
 * every node of a cluster reads and writes the same entries, so two nodes never grant one gadget
 * to two movers. A change is a transaction of its own, committed before the move is recorded: a
 * row lock held to the end of the dispatching step would make every other mover of the gadget, on
 * every node, wait for that step, and the lease is bounded anyway (a lease whose step rolled back
 * lapses by its bound, as one whose answer never came). Moves are rare next to events; the cost is
 * a locking read and a write per change, nothing on the path of an event that moves nothing.
 */
final class DatabaseLeaseBook implements LeaseBook {

    private final JdbcClient jdbc;
    private final TransactionTemplate own;

    DatabaseLeaseBook(JdbcClient jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.own = new TransactionTemplate(transactions);
        this.own.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    @Override
    public Optional<Entry> change(String gadgetId, UnaryOperator<Optional<Entry>> change) {
        try {
            return own.execute(status -> changeLocked(gadgetId, change));
        } catch (DuplicateKeyException raced) {
            // another node wrote the gadget's first row meanwhile: it exists now, and is locked this time
            return own.execute(status -> changeLocked(gadgetId, change));
        }
    }

    private Optional<Entry> changeLocked(String gadgetId, UnaryOperator<Optional<Entry>> change) {
        Optional<Optional<Entry>> row = jdbc.sql("select ticket, expires_at from rz_mover_lease where gadget_id = ? "
                        + "for update")
                .param(gadgetId).query((rs, n) -> entry(rs.getString(1), rs.getTimestamp(2))).optional();
        Optional<Entry> was = row.flatMap(entry -> entry);
        Optional<Entry> next = change.apply(was);
        if (next.equals(was)) {
            return was;
        }
        String ticket = next.map(Entry::ticket).orElse(null);
        Timestamp until = next.map(entry -> Timestamp.from(entry.expiresAt())).orElse(null);
        if (row.isPresent()) {
            jdbc.sql("update rz_mover_lease set ticket = ?, expires_at = ? where gadget_id = ?")
                    .params(ticket, until, gadgetId).update();
        } else {
            jdbc.sql("insert into rz_mover_lease(gadget_id, ticket, expires_at) values (?, ?, ?)")
                    .params(gadgetId, ticket, until).update();
        }
        return was;
    }

    @Override
    public Optional<Entry> read(String gadgetId) {
        return jdbc.sql("select ticket, expires_at from rz_mover_lease where gadget_id = ?").param(gadgetId)
                .query((rs, n) -> entry(rs.getString(1), rs.getTimestamp(2))).optional().flatMap(entry -> entry);
    }

    private static Optional<Entry> entry(String ticket, Timestamp until) {
        return ticket == null || until == null ? Optional.empty() : Optional.of(new Entry(ticket, until.toInstant()));
    }
}
