package dev.ringzero;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A transaction tried again when it fails, for work whose every step is conditional on the record
 * (a second try does what is still to do) and whose conflicts pass in moments: the engine's
 * optimistic lock, when a sweep or a cancellation moved the same process instance at once.
 */
public final class TriedAgain {

    private static final Logger log = LoggerFactory.getLogger(TriedAgain.class);
    /** The pauses before the second, third and fourth tries. */
    private static final long[] PAUSES_MILLIS = {20, 100, 400};

    private TriedAgain() {
    }

    /**
     * Runs {@code work} in a transaction, and again, up to three more times, if it fails; the last
     * failure is thrown. Interrupted while it pauses, it returns with the work not done.
     */
    public static void inTransaction(TransactionTemplate transactions, String what, Runnable work) {
        for (int attempt = 0; ; attempt++) {
            try {
                transactions.executeWithoutResult(status -> work.run());
                return;
            } catch (RuntimeException e) {
                if (attempt >= PAUSES_MILLIS.length) {
                    throw e;
                }
                log.debug("{} is tried again: {}", what, e.toString());
            }
            try {
                Thread.sleep(PAUSES_MILLIS[attempt]);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                log.debug("{} is not tried again: interrupted", what);
                return;
            }
        }
    }
}
