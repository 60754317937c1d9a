package dev.ringzero.support;

import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.SimpleTransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A transaction manager with nothing to manage, which counts the transactions begun, committed and
 * rolled back: for tests of code that opens transactions where no database is (the in-memory
 * engine commits its own commands).
 */
public final class CountedTransactions implements PlatformTransactionManager {

    public final AtomicInteger begun = new AtomicInteger();
    public final AtomicInteger committed = new AtomicInteger();
    public final AtomicInteger rolledBack = new AtomicInteger();

    @Override
    public TransactionStatus getTransaction(TransactionDefinition definition) {
        begun.incrementAndGet();
        return new SimpleTransactionStatus();
    }

    @Override
    public void commit(TransactionStatus status) {
        committed.incrementAndGet();
    }

    @Override
    public void rollback(TransactionStatus status) {
        rolledBack.incrementAndGet();
    }

    /** Transactions begun and not ended yet. */
    public int open() {
        return begun.get() - committed.get() - rolledBack.get();
    }

    /** A template over these transactions. */
    public TransactionTemplate template() {
        return new TransactionTemplate(this);
    }
}
