package io.statesync.rest.store;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.statesync.avro.HealthStatus;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.rest.ApiError;
import io.statesync.view.ResourceView;
import io.statesync.view.StoredResource;

/**
 * Writes that are answered once what they wrote has converged ({@code ?waitFor=Synced} or {@code Healthy}): after
 * admission answers, the write waits until the resource view shows the written generation observed
 * ({@code status.observedGeneration} at least the written generation) and {@code Synced} (and, for {@code Healthy},
 * {@code status.health.status} Healthy), or until its timeout.
 *
 * <p>A waiting write holds no thread: it is a future, checked again whenever the view applies changes (through
 * {@link ResourceView#onChange}) on one checker thread, and completed at its deadline by that thread's timer. The
 * number waiting at once is capped ({@code write.wait.max.waiting}); a write past the cap is refused 429 before it is
 * submitted, so a refusal never leaves a write behind that its client thinks failed.
 */
public final class ConvergenceWaits implements AutoCloseable {

    /** What a write may wait for. */
    public enum Condition { Synced, Healthy }

    /**
     * How a wait ended: the resource as the view showed it then (null when the key was deleted meanwhile), and whether
     * it reached the condition ({@code converged}) or the timeout ended it.
     */
    public record Outcome(Condition condition, StoredResource resource, boolean converged, long timeoutSeconds) {
    }

    /** Seconds a refused client is told to wait: waiting writes end at their timeout at the latest. */
    static final int RETRY_AFTER_SECONDS = 5;

    private final ResourceView view;
    private final long maxTimeoutSeconds;
    private final int maxWaiting;
    private final AtomicInteger waiting = new AtomicInteger();
    private final Set<Waiter> active = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean checkQueued = new AtomicBoolean();
    private final ScheduledExecutorService checker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "statesync-write-wait");
        t.setDaemon(true);
        return t;
    });

    public ConvergenceWaits(ResourceView view, long maxTimeoutSeconds, int maxWaiting) {
        this.view = view;
        this.maxTimeoutSeconds = maxTimeoutSeconds;
        this.maxWaiting = maxWaiting;
        view.onChange(this::viewChanged);
    }

    /**
     * The wait a write asks for with {@code waitFor} and {@code timeoutSeconds}, reserved before the write is
     * submitted: null when {@code waitFor} is absent; 400 for an unknown condition, a timeout that is not a whole
     * number of seconds, or a dry run (which never converges); 429 past {@code write.wait.max.waiting}. A timeout
     * above {@code write.wait.max.timeout.seconds}, or none, is that maximum, as the apiserver caps a request's
     * {@code timeout} at its own.
     */
    public Wait reserve(String waitFor, String timeoutSeconds, boolean dryRun) {
        if (waitFor == null) {
            return null;
        }
        Condition condition = condition(waitFor);
        if (dryRun) {
            throw ApiError.badRequest("waitFor cannot be combined with dryRun: a dry run stores nothing to converge");
        }
        long seconds = timeoutSeconds(timeoutSeconds);
        if (waiting.incrementAndGet() > maxWaiting) {
            waiting.decrementAndGet();
            throw ApiError.tooManyRequests("too many writes wait for convergence on this instance (write.wait.max.waiting="
                + maxWaiting + "); retry, or write without waitFor and watch", RETRY_AFTER_SECONDS);
        }
        return new Wait(condition, seconds);
    }

    private static Condition condition(String waitFor) {
        for (Condition c : Condition.values()) {
            if (c.name().equals(waitFor)) {
                return c;
            }
        }
        throw ApiError.badRequest("waitFor: Unsupported value: \"" + waitFor + "\": supported values: \"Synced\", \"Healthy\"");
    }

    private long timeoutSeconds(String given) {
        if (given == null || given.isBlank()) {
            return maxTimeoutSeconds;
        }
        long seconds;
        try {
            seconds = Long.parseLong(given.trim());
        } catch (NumberFormatException e) {
            throw ApiError.badRequest("timeoutSeconds must be a whole number of seconds, not \"" + given + "\"");
        }
        if (seconds < 0) {
            throw ApiError.badRequest("timeoutSeconds must not be negative");
        }
        return Math.min(seconds, maxTimeoutSeconds);
    }

    /** The writes waiting now. */
    public int waiting() {
        return waiting.get();
    }

    /** Whether {@code r} shows {@code generation} observed and at {@code condition}. */
    static boolean converged(StoredResource r, long generation, Condition condition) {
        if (r == null || r.syncStatus() != SyncStatus.Synced) {
            return false;
        }
        ResourceStatus s = r.resource().getStatus();
        if (s == null || s.getObservedGeneration() < generation || s.getSyncStatus() != SyncStatus.Synced) {
            return false;
        }
        return condition != Condition.Healthy || s.getHealth() != null && s.getHealth().getStatus() == HealthStatus.Healthy;
    }

    /** On the view's reader thread: hands one check of every waiter to the checker thread. */
    private void viewChanged() {
        if (!active.isEmpty() && checkQueued.compareAndSet(false, true)) {
            try {
                checker.execute(this::checkAll);
            } catch (RejectedExecutionException closing) {
                checkQueued.set(false);
            }
        }
    }

    private void checkAll() {
        checkQueued.set(false);
        for (Waiter w : active) {
            w.check();
        }
    }

    @Override
    public void close() {
        checker.shutdownNow();
        for (Waiter w : active) {
            w.timedOut();
        }
    }

    /**
     * One reserved wait. {@link #until} starts it once the write is admitted; {@link #release} gives the reservation
     * back when the write was refused instead. Either ends it, once.
     */
    public final class Wait {
        private final Condition condition;
        private final long timeoutSeconds;
        private final AtomicBoolean released = new AtomicBoolean();

        private Wait(Condition condition, long timeoutSeconds) {
            this.condition = condition;
            this.timeoutSeconds = timeoutSeconds;
        }

        public Condition condition() {
            return condition;
        }

        /** Gives the reservation back; nothing happens after the first call. */
        public void release() {
            if (released.compareAndSet(false, true)) {
                waiting.decrementAndGet();
            }
        }

        /**
         * Completes when the view shows {@code key} at {@code generation} converged, or at the timeout with the
         * resource as it stands; the reservation is given back then.
         */
        public CompletableFuture<Outcome> until(String key, long generation) {
            Waiter w = new Waiter(this, key, generation);
            active.add(w);
            w.future.whenComplete((o, e) -> {
                active.remove(w);
                release();
            });
            try {
                w.timer = checker.schedule(w::timedOut, timeoutSeconds, TimeUnit.SECONDS);
                checker.execute(w::check);
            } catch (RejectedExecutionException closing) {
                w.timedOut();
            }
            return w.future;
        }
    }

    /** A started wait: the key and generation it waits for, checked again only when the key's version moved. */
    private final class Waiter {
        private final Wait wait;
        private final String key;
        private final long generation;
        final CompletableFuture<Outcome> future = new CompletableFuture<>();
        volatile ScheduledFuture<?> timer;
        /** The version last checked; on the checker thread only. */
        private long checkedVersion = Long.MIN_VALUE;

        Waiter(Wait wait, String key, long generation) {
            this.wait = wait;
            this.key = key;
            this.generation = generation;
        }

        void check() {
            if (future.isDone()) {
                return;
            }
            StoredResource r = view.get(key);
            if (r == null) {
                finish(false, null);
                return;
            }
            if (r.version() == checkedVersion) {
                return;
            }
            checkedVersion = r.version();
            if (converged(r, generation, wait.condition)) {
                finish(true, r);
            }
        }

        /** Ends the wait unconverged with the resource as it stands now: its timeout, or the instance stopping. */
        void timedOut() {
            finish(false, view.get(key));
        }

        void finish(boolean converged, StoredResource r) {
            if (future.complete(new Outcome(wait.condition, r, converged, wait.timeoutSeconds))) {
                ScheduledFuture<?> t = timer;
                if (t != null) {
                    t.cancel(false);
                }
            }
        }
    }
}
