package dev.ringzero;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;

import dev.ringzero.support.PlatformTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/** A row is read once per transaction, forgotten when written, and never shared between transactions. */
class TransactionReadsTest extends PlatformTest {

    @Autowired
    TransactionReads underTest;
    @Autowired
    PlatformTransactionManager transactionManager;

    @Test
    void aRowIsReadOncePerTransactionAndAgainAfterItWasWritten() {
        AtomicInteger loads = new AtomicInteger();
        new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
            underTest.get("row", loads::incrementAndGet);
            underTest.get("row", loads::incrementAndGet);
            assertThat(loads).hasValue(1);
            underTest.forget("row");
            assertThat(underTest.<Integer>get("row", loads::incrementAndGet)).isEqualTo(2);
        });
        new TransactionTemplate(transactionManager).executeWithoutResult(status ->
                underTest.get("row", loads::incrementAndGet));
        assertThat(loads).as("a new transaction reads again").hasValue(3);
    }

    @Test
    void outsideATransactionEveryReadGoesToTheDatabase() {
        AtomicInteger loads = new AtomicInteger();
        underTest.get("row", loads::incrementAndGet);
        underTest.get("row", loads::incrementAndGet);
        assertThat(loads).hasValue(2);
    }

    @Test
    void aTransactionStartedInsideAnotherDoesNotSeeItsReads() {
        AtomicInteger loads = new AtomicInteger();
        TransactionTemplate requiresNew = new TransactionTemplate(transactionManager);
        requiresNew.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        new TransactionTemplate(transactionManager).executeWithoutResult(outer -> {
            underTest.get("row", loads::incrementAndGet);
            requiresNew.executeWithoutResult(inner -> underTest.get("row", loads::incrementAndGet));
            assertThat(loads).hasValue(2);
            underTest.get("row", loads::incrementAndGet);
            assertThat(loads).as("the outer transaction still has its own read").hasValue(2);
        });
    }
}
