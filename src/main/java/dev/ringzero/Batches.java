package dev.ringzero;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Several pieces of work in one transaction, all or nothing, and each piece alone again if the
 * batch fails: what the routing and answer lanes do under load. The engine implements it (in
 * the workflow package) so the engine's calls inside share one command: one flush, one commit.
 */
public interface Batches {

    /**
     * Does {@code work} for every item in one transaction; on failure, for each item in one of its
     * own, telling {@code failed} of each item that fails alone too.
     */
    <T> void run(List<T> items, Consumer<T> work, BiConsumer<T, RuntimeException> failed);

    /** Takes what has queued up, at most {@code max} items: a lane worker's next batch. */
    static <T> List<T> take(Queue<T> queue, int max) {
        List<T> taken = new ArrayList<>(max);
        T next;
        while (taken.size() < max && (next = queue.poll()) != null) {
            taken.add(next);
        }
        return taken;
    }
}
