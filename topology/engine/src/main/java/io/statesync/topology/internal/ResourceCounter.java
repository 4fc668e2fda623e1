package io.statesync.topology.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import io.statesync.topology.ReconcileMetrics;
import org.apache.kafka.streams.KeyValue;

/**
 * Keeps one task's share of {@code statesync_resources}: moves as keys are reconciled, and a recount of the store when
 * the task is assigned (at start and after a rebalance), so the gauge says what the store holds whatever transitions
 * were missed or counted on another instance.
 *
 * <p>The recount reads the store a slice at a time, from the assignment on and then from a punctuation, so that a task
 * with many keys reaches RUNNING without decoding all of them first. While it runs, a move of a key the recount has
 * already passed changes the recount's totals, and a move of a key ahead of it is left for the recount to read; the
 * changed states are written through before each call's slices so that the store holds them, new keys included (no
 * reconcile runs between the slices of one call). The task
 * counts in the gauge once its recount ends.
 */
final class ResourceCounter {

    /**
     * Where the recount reads the task's keys: slices of them in the store's byte order, each with the series its state
     * counts in (null for one that counts in none).
     */
    interface Source {
        List<KeyValue<String, String>> slice(String fromExclusive, int limit);

        /** Writes the changed states to the store, so that a slice sees them. */
        void writeThrough();
    }

    static final int SLICE_KEYS = 1_000;

    private final ReconcileMetrics metrics;
    private final String task;
    private final Source source;
    private final int sliceKeys;
    private final LongSupplier nanoTime;
    private boolean counting;
    private String cursor;
    private byte[] cursorBytes;
    private Map<String, Long> counts;

    ResourceCounter(ReconcileMetrics metrics, String task, Source source, int sliceKeys, LongSupplier nanoTime) {
        this.metrics = metrics;
        this.task = task;
        this.source = source;
        this.sliceKeys = sliceKeys;
        this.nanoTime = nanoTime;
    }

    /** A reconcile moved {@code key} from series {@code from} to {@code to}; either is null when it appears or goes. */
    void moved(String key, String from, String to) {
        if (!counting) {
            metrics.resourceMoved(task, from, to);
        } else if (cursorBytes != null && Arrays.compareUnsigned(key.getBytes(StandardCharsets.UTF_8), cursorBytes) <= 0) {
            if (from != null) {
                counts.merge(from, -1L, Long::sum);
            }
            if (to != null) {
                counts.merge(to, 1L, Long::sum);
            }
        }
    }

    /** Starts a recount from the first key; a recount already running starts over. */
    void startRecount() {
        counting = true;
        cursor = null;
        cursorBytes = null;
        counts = new HashMap<>();
    }

    boolean counting() {
        return counting;
    }

    /**
     * Counts slices until the recount ends or {@code budgetNanos} has passed, at least one slice; returns whether the
     * recount has ended, its totals then replacing the task's in the gauge.
     */
    boolean recount(long budgetNanos) {
        if (!counting) {
            return true;
        }
        long start = nanoTime.getAsLong();
        source.writeThrough();
        do {
            List<KeyValue<String, String>> slice = source.slice(cursor, sliceKeys);
            for (KeyValue<String, String> kv : slice) {
                if (kv.value != null) {
                    counts.merge(kv.value, 1L, Long::sum);
                }
            }
            if (slice.size() < sliceKeys) {
                finish();
                return true;
            }
            cursor = slice.get(slice.size() - 1).key;
            cursorBytes = cursor.getBytes(StandardCharsets.UTF_8);
        } while (nanoTime.getAsLong() - start < budgetNanos);
        return false;
    }

    private void finish() {
        counts.values().removeIf(n -> n == 0);
        metrics.recounted(task, counts);
        counting = false;
        counts = null;
        cursor = null;
        cursorBytes = null;
    }
}
