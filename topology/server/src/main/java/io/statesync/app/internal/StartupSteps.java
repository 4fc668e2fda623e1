package io.statesync.app.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the steps of an instance's start-up, each logged at INFO with its duration, so that a slow start names its
 * slow step; {@link #async} runs independent steps at the same time on their own threads.
 */
public final class StartupSteps implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StartupSteps.class);

    private final long begin = System.nanoTime();
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "statesync-startup");
        t.setDaemon(true);
        return t;
    });

    /** Runs {@code step} on the calling thread. */
    public <T> T run(String name, Supplier<T> step) {
        long t0 = System.nanoTime();
        T result = step.get();
        LOG.info("Start-up step '{}' took {} ms", name, millisSince(t0));
        return result;
    }

    public void run(String name, Runnable step) {
        run(name, () -> {
            step.run();
            return null;
        });
    }

    /** Runs {@code step} on another thread; {@link #join} waits for it and rethrows its failure. */
    public <T> CompletableFuture<T> async(String name, Supplier<T> step) {
        return CompletableFuture.supplyAsync(() -> run(name, step), pool);
    }

    public CompletableFuture<Void> async(String name, Runnable step) {
        return CompletableFuture.runAsync(() -> run(name, step), pool);
    }

    /** Runs {@code step} on another thread once {@code first} has completed; not at all when {@code first} failed. */
    public CompletableFuture<Void> after(CompletableFuture<?> first, String name, Runnable step) {
        return first.thenRunAsync(() -> run(name, step), pool);
    }

    /** The step's result; its own exception, not a wrapper, when it failed. */
    public static <T> T join(CompletableFuture<T> step) {
        try {
            return step.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** Milliseconds since this start-up began. */
    public long elapsedMillis() {
        return millisSince(begin);
    }

    private static long millisSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
