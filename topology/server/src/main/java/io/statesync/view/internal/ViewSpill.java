package io.statesync.view.internal;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.statesync.view.StoredResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the REST view's values off the heap while it runs, not only after a restart: once the values held on the heap
 * reach a threshold, the view is written as its snapshot on a thread of its own and mapped back, and the poller then
 * swaps each resource still unchanged for its mapped copy ({@link SnapshotKeeper}). Otherwise a view that has read its
 * values from the topic holds all of them on the heap for as long as it runs.
 *
 * <p>Each write rewrites the whole view. A write is due once the heap holds the threshold, whatever the file's size,
 * so that the heap's share stays a budget in bytes as the view grows; below it, a write is due early, from a quarter of
 * the threshold on, when the heap also holds at least a quarter of what the file holds (each byte changed is then
 * written at most about five times). Never sooner than the interval after the last. The poller alone calls every
 * method but {@link #close} and {@link #heapBytes}.
 */
final class ViewSpill {

    private static final Logger LOG = LoggerFactory.getLogger(ViewSpill.class);
    /** The heap's share of the file's bytes below which an early write would mostly rewrite what is already mapped. */
    private static final int FILE_SHARE_DIVISOR = 4;
    /** The threshold's share from which a write is due early, when the file is small beside the heap's values. */
    private static final int EARLY_DIVISOR = 4;

    /** The view as written, and the same resources read back, index by index, with their values mapped. */
    record Spilled(StoredResource[] written, StoredResource[] mapped) {
    }

    private final ViewSnapshotStore snapshots;
    private final long thresholdBytes;
    private final long intervalMs;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "statesync-view-spill");
        t.setDaemon(true);
        return t;
    });
    private CompletableFuture<Spilled> pending;
    /** Written by the poller only; volatile for the gauge that reads it. */
    private volatile long heapBytes;
    private long fileBytes;
    private long lastStartMs = Long.MIN_VALUE / 2;

    /** {@code thresholdBytes} 0 turns spilling off. */
    ViewSpill(ViewSnapshotStore snapshots, long thresholdBytes, long intervalMs) {
        this.snapshots = snapshots;
        this.thresholdBytes = thresholdBytes;
        this.intervalMs = intervalMs;
    }

    /**
     * The view has caught up with the topic, holding {@code mappedBytes} of values in the snapshot it started from: the
     * first write waits an interval from here. After a start without a usable snapshot the instance's stores are often
     * still restoring, and a write of the whole view beside them competes with the restore and delays it.
     */
    void loaded(long nowMs, long mappedBytes) {
        lastStartMs = nowMs;
        fileBytes = mappedBytes;
    }

    /** Accounts a change of the view from {@code before} to {@code now} (either may be null). */
    void changed(StoredResource before, StoredResource now) {
        heapBytes += heapBytes(now) - heapBytes(before);
    }

    /** Accounts a resource that now holds its value in the file instead of on the heap. */
    void mappedIn(StoredResource was) {
        heapBytes -= heapBytes(was);
    }

    /** The bytes of values the view holds on the heap, as accounted. */
    long heapBytes() {
        return heapBytes;
    }

    boolean due(long nowMs) {
        if (snapshots == null || thresholdBytes <= 0 || pending != null || nowMs - lastStartMs < intervalMs) {
            return false;
        }
        return heapBytes >= thresholdBytes
            || heapBytes >= thresholdBytes / EARLY_DIVISOR && heapBytes >= fileBytes / FILE_SHARE_DIVISOR;
    }

    /** Writes {@code sorted} (the view in key order, one per key) as of {@code positions}, then maps it back. */
    void start(long[] positions, StoredResource[] sorted, long nowMs) {
        lastStartMs = nowMs;
        pending = CompletableFuture.supplyAsync(() -> {
            try {
                return new Spilled(sorted, snapshots.writeAndMap(positions, sorted));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, writer);
    }

    /** The finished write, once; null while none has finished (or when it failed, which is logged). */
    Spilled finished() {
        if (pending == null || !pending.isDone()) {
            return null;
        }
        CompletableFuture<Spilled> done = pending;
        pending = null;
        try {
            Spilled spilled = done.join();
            fileBytes = Arrays.stream(spilled.mapped()).mapToLong(r -> StoredValue.of(r).valueLength()).sum();
            return spilled;
        } catch (RuntimeException e) {
            // Tried again after the interval; a full disk would otherwise print a stack every few seconds.
            Throwable cause = e.getCause() != null && e.getCause().getCause() != null ? e.getCause().getCause() : e;
            LOG.warn("Could not move the resource view's values to its snapshot file, they stay on the heap: {}", cause.toString());
            LOG.debug("Snapshot write failure", e);
            return null;
        }
    }

    /**
     * Waits for a write under way, so that the snapshot written at a stop is not raced by it; false when one is still
     * running (the stop then writes no snapshot of its own).
     */
    boolean close() {
        writer.shutdown();
        try {
            if (writer.awaitTermination(60, TimeUnit.SECONDS)) {
                return true;
            }
            LOG.warn("The resource view's snapshot write did not finish within 60 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private static long heapBytes(StoredResource r) {
        if (r == null) {
            return 0;
        }
        StoredValue v = StoredValue.of(r);
        return v.isMapped() ? 0 : Math.max(v.valueLength(), 0);
    }
}
