package dev.ringzero;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;

import dev.ringzero.support.CountedTransactions;
import org.junit.jupiter.api.Test;

class TriedAgainTest {

    private final CountedTransactions transactions = new CountedTransactions();

    @Test
    void aConflictThatPassesIsTriedAgainInATransactionOfItsOwnUntilItCommits() {
        AtomicInteger tries = new AtomicInteger();

        TriedAgain.inTransaction(transactions.template(), "work", () -> {
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

        assertThatThrownBy(() -> TriedAgain.inTransaction(transactions.template(), "work", () -> {
            throw new IllegalStateException("try " + tries.incrementAndGet());
        })).hasMessage("try 4");

        assertThat(transactions.committed).hasValue(0);
    }
}
