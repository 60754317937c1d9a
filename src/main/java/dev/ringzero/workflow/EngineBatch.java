package dev.ringzero.workflow;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import dev.ringzero.Batches;
import dev.ringzero.TransactionReads;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.springframework.stereotype.Component;

/**
 * Several pieces of engine work (starting runs, waking them) in one transaction and one engine
 * command: the engine's commands called inside reuse that command's context, so the batch costs
 * one begin, one flush (its inserts and deletes sent as JDBC batches) and one commit instead of
 * one of each per item. Under load the lanes hand whatever has queued up to one batch; alone, an
 * item is a batch of one and costs what it did before.
 *
 * <p>All or nothing: if any item fails, the batch rolls back and every item is tried again in a
 * command of its own, so one bad item never takes the others down with it.
 */
@Component
public class EngineBatch implements Batches {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(EngineBatch.class);

    private final ProcessEngineConfigurationImpl engine;
    private final TransactionReads reads;

    EngineBatch(ProcessEngineConfigurationImpl engine, TransactionReads reads) {
        this.engine = engine;
        this.reads = reads;
    }

    /**
     * Does {@code work} for every item in one command; on failure, for each item in a command of
     * its own, telling {@code failed} of each item that fails alone too.
     */
    @Override
    public <T> void run(List<T> items, Consumer<T> work, BiConsumer<T, RuntimeException> failed) {
        if (items.isEmpty()) {
            return;
        }
        if (items.size() > 1) {
            try {
                inOneCommand(items, work);
                return;
            } catch (RuntimeException e) {
                // one item spoiled the batch (or two batches locked in opposite orders): one at a time
            }
        }
        for (T item : items) {
            try {
                inOneCommand(List.of(item), work);
            } catch (RuntimeException e) {
                try {
                    failed.accept(item, e);
                } catch (RuntimeException alsoFailed) {
                    // the next items still get their turn
                    log.error("an item of a batch failed, and so did its fallback: {}", alsoFailed.toString());
                }
            }
        }
    }

    private <T> void inOneCommand(List<T> items, Consumer<T> work) {
        engine.getCommandExecutorTxRequired().execute(commandContext -> {
            for (T item : items) {
                reads.forgetAll(); // each item judges its agents and gadgets as they are now
                work.accept(item);
            }
            return null;
        });
    }
}
