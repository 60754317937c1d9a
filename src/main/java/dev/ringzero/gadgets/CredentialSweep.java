package dev.ringzero.gadgets;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Keeps the broker's device credentials to the gadgets that are paired. Unpairing commits first
 * and revokes a grace later (the notice must leave the broker before the connection is closed),
 * so a node that stops in that grace, or a broker that does not answer then, would leave a
 * working credential behind: this sweep, at start and then every few minutes, retires every
 * credential whose gadget the platform knows as unpaired.
 */
@Component
class CredentialSweep {

    private static final Logger log = LoggerFactory.getLogger(CredentialSweep.class);

    private final GadgetStore store;
    private final BrokerAccess broker;
    private final PairingLink link;
    private final TransactionTemplate locked;

    CredentialSweep(GadgetStore store, BrokerAccess broker, PairingLink link, PlatformTransactionManager transactions) {
        this.store = store;
        this.broker = broker;
        this.link = link;
        this.locked = new TransactionTemplate(transactions);
    }

    @Scheduled(initialDelayString = "${ringzero.gadgets.credential-sweep-after:PT10S}",
            fixedDelayString = "${ringzero.gadgets.credential-sweep-every:PT5M}")
    void scheduled() {
        try {
            sweep();
        } catch (RuntimeException e) {
            log.warn("device credentials not swept (next sweep tries again): {}", e.getMessage());
        }
    }

    /** Retires the credentials of unpaired gadgets the broker still holds; the count retired. */
    int sweep() {
        int retired = 0;
        for (String gadgetId : broker.credentialed()) {
            if (retire(gadgetId)) {
                retired++;
            }
        }
        if (retired > 0) {
            log.info("retired {} device credentials their unpairing had left on the broker", retired);
        }
        return retired;
    }

    /**
     * Revokes the gadget's credential and clears its presence if the gadget is unpaired. The row
     * stays locked until the broker has answered: a re-pairing of the id (which updates the row
     * and then provisions a new credential, in one transaction) either commits before this reads
     * it, and its credential is kept, or waits until the old one is gone. An id the platform has
     * no row for is left alone: a pairing being inserted has no row to lock yet.
     */
    boolean retire(String gadgetId) {
        return Boolean.TRUE.equals(locked.execute(status -> {
            if (!store.lockUnpaired(gadgetId)) {
                return false;
            }
            broker.revoke(gadgetId);
            link.clearPresence(gadgetId);
            return true;
        }));
    }
}
