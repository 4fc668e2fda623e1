package io.statesync.view.internal;

import java.util.TreeMap;
import java.util.concurrent.locks.Lock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import io.statesync.topology.TopicNames;
import io.statesync.view.ResourceView.TopicFacts;
import io.statesync.view.StoredResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The view's snapshot file over an instance's life: the view starts from the one a clean stop wrote, moves its values
 * off the heap into a new one while it runs ({@link ViewSpill}), and writes it once more at the next clean stop. Where
 * the file lives and whether it may be used is {@link ViewSnapshotStore}'s call, its layout {@link ViewSnapshot}'s.
 *
 * <p>All but {@link #heapBytes}, {@link #restored} and {@link #close} run on the view's poller; what they change in
 * the index and the ring they change under the view's lock.
 */
public final class SnapshotKeeper {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotKeeper.class);

    /** Null when snapshots are disabled. */
    private final ViewSnapshotStore store;
    private final ViewSpill spill;
    private final ResourceIndex index;
    private final ChangeRing ring;
    private final Lock lock;
    private volatile int restored;
    /** The bytes of values in the snapshot the view started from. */
    private long restoredValueBytes;

    /** {@code topicFacts} is asked once per start, and only when there is a snapshot to judge or write. */
    public SnapshotKeeper(AppConfig config, TopicNames topics, Supplier<TopicFacts> topicFacts, StoredResource.Decoder decoder,
                          ResourceIndex index, ChangeRing ring, Lock lock) {
        this.store = ViewSnapshotStore.fromConfig(config, topics, topicFacts, decoder);
        this.spill = new ViewSpill(store, config.getLong(ServerConfig.VIEW_SPILL_BYTES), config.getLong(ServerConfig.VIEW_SPILL_INTERVAL_MS));
        this.index = index;
        this.ring = ring;
        this.lock = lock;
    }

    /**
     * Starts the index and the ring from the snapshot when there is one that may be used, and returns its position, to
     * read the topic from; else null. Changes before that position are not in the ring, so a watch from an older
     * position is answered 410 Gone and re-lists, as after any ring eviction.
     */
    public long[] startFrom(long[] logStart, long[] logEnd) {
        ViewSnapshot.Loaded snapshot = store == null ? null : store.load(logStart, logEnd);
        if (snapshot == null) {
            return null;
        }
        TreeMap<String, StoredResource> tree = snapshot.byKey();
        long[] position = snapshot.header().positions();
        restoredValueBytes = index.fill(tree);
        lock.lock();
        try {
            index.useSorted(tree);
            ring.resumeAt(position);
        } finally {
            lock.unlock();
        }
        restored = tree.size();
        return position;
    }

    /** How many resources the view took from its snapshot at start; 0 when it read the topic from the beginning. */
    public int restored() {
        return restored;
    }

    /** The view has caught up with the topic: the first write waits an interval from here ({@link ViewSpill#loaded}). */
    public void loaded() {
        spill.loaded(System.currentTimeMillis(), restoredValueBytes);
    }

    /** Accounts a change of the view from {@code before} to {@code now} (either may be null). */
    public void changed(StoredResource before, StoredResource now) {
        spill.changed(before, now);
    }

    /** The bytes of values the view holds on the heap; the rest are mapped from its snapshot file. */
    public long heapBytes() {
        return spill.heapBytes();
    }

    /** Swaps in the values of a finished snapshot write, and starts the next write when one is due. */
    public void spillIfDue() {
        ViewSpill.Spilled done = spill.finished();
        if (done != null) {
            swapIn(done);
        }
        long now = System.currentTimeMillis();
        if (spill.due(now)) {
            StoredResource[] sorted;
            long[] at;
            lock.lock();
            try {
                sorted = index.sortedArray();
                at = ring.position().offsets();
            } finally {
                lock.unlock();
            }
            spill.start(at, sorted, now);
        }
    }

    /** Replaces each resource the write took and nothing has changed since with its mapped copy. */
    private void swapIn(ViewSpill.Spilled spilled) {
        long heapBefore = spill.heapBytes();
        int swapped;
        lock.lock();
        try {
            swapped = index.swapIn(spilled.written(), spilled.mapped(), spill::mappedIn);
            ring.swapIn(spilled.written(), spilled.mapped());
        } finally {
            lock.unlock();
        }
        LOG.info("Resource view: {} of {} resources now read from the snapshot file; {} MB of values left the heap, {} MB remain",
            swapped, spilled.written().length, (heapBefore - spill.heapBytes()) >> 20, spill.heapBytes() >> 20);
    }

    /**
     * At a stop, once nothing changes the view any more: waits for a write under way (both use the same file), then
     * writes the view as it stands, at its position, when it is {@code complete} by then (read in full, and its reader
     * stopped cleanly).
     */
    public void close(BooleanSupplier complete) {
        boolean spillIdle = spill.close();
        if (store != null && spillIdle && complete.getAsBoolean()) {
            store.save(ring.position().offsets(), index.sortedValues());
        }
    }
}
