package dev.ringzero;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Rows a transaction has already read, kept until it ends. One event's run reads its run, its
 * actions, its agent and its gadget at every step (admit, prepare, dispatch, settle, finish), all
 * in one transaction; a store reads each row once, and when it writes it either changes what it
 * read in the same way or forgets it. A run's own rows change only under it; its agent and gadget
 * may change meanwhile (a disable, an unpairing), as they may between any read and the send that
 * follows it: admission re-reads the agent under its lock, and a batch forgets every row between
 * its items ({@link #forgetAll}), so the window is one run's step, never a whole batch. Outside a
 * transaction every read goes to the database. The cache belongs to the transaction's connection,
 * so a transaction started inside another (REQUIRES_NEW) never sees the outer one's rows.
 */
@Component
public class TransactionReads {

    private final DataSource dataSource;

    public TransactionReads(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The row under {@code key}, read by {@code loader} at most once per transaction. */
    @SuppressWarnings("unchecked")
    public <T> T get(String key, Supplier<T> loader) {
        Map<String, Object> reads = reads(true);
        if (reads == null) {
            return loader.get();
        }
        if (reads.containsKey(key)) {
            return (T) reads.get(key);
        }
        T value = loader.get();
        reads.put(key, value);
        return value;
    }

    /** The transaction just wrote the row under {@code key} and knows it whole: later reads use it. */
    public void put(String key, Object value) {
        Map<String, Object> reads = reads(true);
        if (reads != null) {
            reads.put(key, value);
        }
    }

    /**
     * The transaction changed the row under {@code key} as {@code change} says: a row already read
     * is changed in place (no second read), one never read stays unread.
     */
    @SuppressWarnings("unchecked")
    public <T> void change(String key, java.util.function.UnaryOperator<T> change) {
        Map<String, Object> reads = reads(false);
        if (reads != null && reads.containsKey(key)) {
            reads.put(key, change.apply((T) reads.get(key)));
        }
    }

    /** The row under {@code key} was written: the next read goes to the database. */
    public void forget(String key) {
        Map<String, Object> reads = reads(false);
        if (reads != null) {
            reads.remove(key);
        }
    }

    /**
     * Forgets every row this transaction read: the next item of a batch (several events or
     * answers in one transaction) reads the agents and gadgets it judges as they are now, not as
     * the batch's first item saw them.
     */
    public void forgetAll() {
        Map<String, Object> reads = reads(false);
        if (reads != null) {
            reads.clear();
        }
    }

    /** This transaction's reads, keyed by its connection holder; null outside a transaction. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> reads(boolean create) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()
                || !TransactionSynchronizationManager.isActualTransactionActive()) {
            return null;
        }
        Object connection = TransactionSynchronizationManager.getResource(dataSource);
        if (connection == null) {
            return null;
        }
        Key key = new Key(connection);
        Map<String, Object> reads = (Map<String, Object>) TransactionSynchronizationManager.getResource(key);
        if (reads == null && create) {
            Map<String, Object> fresh = new HashMap<>();
            TransactionSynchronizationManager.bindResource(key, fresh);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    TransactionSynchronizationManager.unbindResourceIfPossible(key);
                }
            });
            reads = fresh;
        }
        return reads;
    }

    /** Identity of the transaction's connection holder. */
    private record Key(Object connection) {

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && key.connection == connection;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(connection);
        }
    }
}
