package io.statesync.agent.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs tasks on a fixed pool (bounded concurrency) while chaining the tasks of one key, so that two corrections for
 * the same resource are never applied at once or out of order.
 */
public final class KeyedExecutor implements AutoCloseable {

    private final ExecutorService pool;
    private final Map<String, CompletableFuture<Void>> tails = new ConcurrentHashMap<>();

    public KeyedExecutor(int threads, String namePrefix) {
        AtomicInteger ids = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, namePrefix + "-" + ids.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs {@code task} after every task already submitted for {@code key}, even one that failed. */
    public CompletableFuture<Void> submit(String key, Runnable task) {
        CompletableFuture<Void> next = tails.compute(key, (k, tail) -> tail == null
            ? CompletableFuture.runAsync(task, pool)
            : tail.handle((ok, error) -> null).thenRunAsync(task, pool));
        // Drop the chain once it is idle so the map only holds keys with work in flight.
        next.whenComplete((ok, error) -> tails.remove(key, next));
        return next;
    }

    /** Keys with work queued or running. */
    public int activeKeys() {
        return tails.size();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    public void close(Duration grace) {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                pool.shutdownNow();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
