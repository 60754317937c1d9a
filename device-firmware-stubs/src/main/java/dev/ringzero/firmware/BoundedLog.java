package dev.ringzero.firmware;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;

/**
 * An append-only history that keeps the newest {@code limit} entries, so a board in
 * a fleet of thousands stays small, and that tests can wait on without sleeping.
 */
final class BoundedLog<T> {

    private final ArrayDeque<T> items = new ArrayDeque<>();
    private int limit;
    private long total;

    BoundedLog(int limit) {
        setLimit(limit);
    }

    synchronized void setLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive");
        }
        this.limit = limit;
        while (items.size() > limit) {
            items.removeFirst();
        }
    }

    synchronized void add(T item) {
        items.addLast(item);
        if (items.size() > limit) {
            items.removeFirst();
        }
        total++;
        notifyAll();
    }

    synchronized List<T> snapshot() {
        return List.copyOf(items);
    }

    /** Everything ever added, including entries the limit has dropped. */
    synchronized long total() {
        return total;
    }

    /** True once at least {@code n} entries were ever added; false on timeout or interrupt. */
    synchronized boolean awaitTotal(long n, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (total < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            try {
                long ms = Math.max(1, left / 1_000_000);
                wait(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
