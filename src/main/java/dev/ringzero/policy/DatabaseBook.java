package dev.ringzero.policy;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import dev.ringzero.kernel.Book;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A kernel {@link Book} in the shared database: a row per gadget ever written ({@code gadget_id}
 * its key), its entry in the subclass's columns. Every node of a cluster reads and changes the
 * same row under its lock, so no two nodes decide one gadget differently. A change is a
 * transaction of its own, committed before the step that asked for it goes on: a row lock held to
 * the end of that step would make every other change of the gadget, on every node, wait for it.
 * A change reads the row {@code for update}, writes only if the entry changed, and inserts the
 * row the first time (another node's first insert at the same moment is waited out and read).
 */
abstract class DatabaseBook<E> implements Book<E> {

    protected final JdbcClient jdbc;
    private final TransactionTemplate own;
    private final String select;
    private final String update;
    private final String insert;

    /** {@code columns}: where the entry is kept, in the order {@link #values} gives them. */
    DatabaseBook(JdbcClient jdbc, PlatformTransactionManager transactions, String table, String... columns) {
        this.jdbc = jdbc;
        this.own = new TransactionTemplate(transactions);
        this.own.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        String list = String.join(", ", columns);
        this.select = "select " + list + " from " + table + " where gadget_id = ?";
        this.update = "update " + table + " set " + String.join(" = ?, ", columns) + " = ? where gadget_id = ?";
        this.insert = "insert into " + table + "(gadget_id, " + list + ") values (?" + ", ?".repeat(columns.length)
                + ")";
    }

    /** The entry a row records, from its columns; none for a free gadget. */
    abstract Optional<E> entry(String gadgetId, ResultSet row) throws SQLException;

    /** The columns' values for {@code entry} (none: the gadget is free), in the order of the columns. */
    abstract List<Object> values(Optional<E> entry);

    @Override
    public Optional<E> change(String gadgetId, UnaryOperator<Optional<E>> change) {
        try {
            return own.execute(status -> changeLocked(gadgetId, change));
        } catch (DuplicateKeyException raced) {
            // another node wrote the gadget's first row meanwhile: it exists now, and is locked this time
            return own.execute(status -> changeLocked(gadgetId, change));
        }
    }

    private Optional<E> changeLocked(String gadgetId, UnaryOperator<Optional<E>> change) {
        Optional<Optional<E>> row = jdbc.sql(select + " for update").param(gadgetId)
                .query((rs, n) -> entry(gadgetId, rs)).optional();
        Optional<E> was = row.flatMap(entry -> entry);
        Optional<E> next = change.apply(was);
        if (next.equals(was)) {
            return was;
        }
        List<Object> values = new ArrayList<>(values(next));
        if (row.isPresent()) {
            values.add(gadgetId);
            jdbc.sql(update).params(values).update();
        } else {
            values.add(0, gadgetId);
            jdbc.sql(insert).params(values).update();
        }
        return was;
    }

    @Override
    public Optional<E> read(String gadgetId) {
        return jdbc.sql(select).param(gadgetId).query((rs, n) -> entry(gadgetId, rs)).optional()
                .flatMap(entry -> entry);
    }
}
