package dev.ringzero;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.SimpleTransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

class TriedAgainTest {

    /** Counts the transactions begun, committed and rolled back. */
    private static final class Counted implements PlatformTransactionManager {
        final AtomicInteger begun = new AtomicInteger();
        final AtomicInteger committed = new AtomicInteger();
        final AtomicInteger rolledBack = new AtomicInteger();

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
    }

    private final Counted transactions = new Counted();

    @Test
    void aConflictThatPassesIsTriedAgainInATransactionOfItsOwnUntilItCommits() {
        AtomicInteger tries = new AtomicInteger();

        TriedAgain.inTransaction(new TransactionTemplate(transactions), "work", () -> {
            if (tries.incrementAndGet() < 3) {
                throw new IllegalStateException("moved meanwhile");
            }
        });

        assertThat(tries).hasValue(3);
        assertThat(transactions.begun).hasValue(3);
        assertThat(transactions.rolledBack).hasValue(2);
        assertThat(transactions.committed).hasValue(1);
    }

    @Test
    void afterTheFourthTryTheLastFailureIsThrown() {
        AtomicInteger tries = new AtomicInteger();

        assertThatThrownBy(() -> TriedAgain.inTransaction(new TransactionTemplate(transactions), "work", () -> {
            throw new IllegalStateException("try " + tries.incrementAndGet());
        })).hasMessage("try 4");

        assertThat(transactions.committed).hasValue(0);
    }
}
