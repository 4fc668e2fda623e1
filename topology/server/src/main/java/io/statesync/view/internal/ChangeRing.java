package io.statesync.view.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import io.statesync.view.ResourceView.Batch;
import io.statesync.view.ResourceView.Change;
import io.statesync.view.ResourceView.Type;
import io.statesync.view.StoredResource;
import io.statesync.view.WatchPosition;

/**
 * The view's recent changes, for watches, and its position: per partition of statesync.resources, the offset of the
 * next record to read. Each change is numbered ({@code seq}) in the order the view applied it; the ring keeps the last
 * {@code capacity} of them, and no more than {@code maxBytes} ({@link #bytesOf}: the resources each change holds, the
 * replaced one of a modification included, and the change's own object), so that a burst of large objects cannot hold
 * the heap; a watch is a cursor into it, so nothing is queued per client.
 *
 * <p>A position can be replayed when no change after it has left the ring: per partition it must be at or above both
 * where the view started reading and the offset after the newest change evicted from that partition. After a start
 * from a snapshot, the ring starts at the snapshot's position.
 *
 * <p>Not thread-safe: the view's lock guards every call ({@code ResourceView}).
 */
public final class ChangeRing {

    /** A {@link Change}'s object (header, two longs, an int, four references) and its slot in the array. */
    static final long CHANGE_OVERHEAD = 48 + 4;

    private final int capacity;
    private final long maxBytes;
    private final Change[] ring;
    /** The stored bytes of the changes' resources now in the ring. */
    private long bytes;
    private long oldestSeq;
    private long nextSeq;
    private long[] positions;
    private long[] startOffsets;
    private long[] evictedBelow;

    public ChangeRing(int capacity) {
        this(capacity, Long.MAX_VALUE);
    }

    public ChangeRing(int capacity, long maxBytes) {
        this.capacity = capacity;
        this.maxBytes = maxBytes;
        this.ring = new Change[capacity];
    }

    /** The view starts reading every partition at {@code logStart}. */
    public void startAt(long[] logStart) {
        positions = logStart.clone();
        startOffsets = logStart.clone();
        evictedBelow = logStart.clone();
    }

    /** The view took a snapshot's resources as of {@code snapshotPositions}; nothing before them can be replayed. */
    public void resumeAt(long[] snapshotPositions) {
        positions = snapshotPositions.clone();
        evictedBelow = positions.clone();
    }

    /**
     * Records that the record at {@code offset} of {@code partition} changed {@code key} from {@code previous} to
     * {@code now} (either may be null, not both), evicting the oldest change when the ring is full.
     */
    public void add(int partition, long offset, String key, StoredResource now, StoredResource previous) {
        Type type = now == null ? Type.DELETED : previous == null ? Type.ADDED : Type.MODIFIED;
        StoredResource resource = now == null ? deleted(key, previous) : now;
        Change change = new Change(nextSeq, partition, offset, type, key, resource, previous);
        long size = bytesOf(change);
        while (nextSeq - oldestSeq == capacity || nextSeq > oldestSeq && bytes + size > maxBytes) {
            evictOldest();
        }
        ring[(int) (nextSeq % capacity)] = change;
        bytes += size;
        nextSeq++;
    }

    private void evictOldest() {
        int slot = (int) (oldestSeq++ % capacity);
        Change gone = ring[slot];
        ring[slot] = null;
        bytes -= bytesOf(gone);
        evictedBelow[gone.partition()] = Math.max(evictedBelow[gone.partition()], gone.offset() + 1);
    }

    /**
     * What a change holds on the heap: its resource, and for a modification also the resource it replaced, which nothing
     * but the ring keeps once the index holds the new one; plus its own object. A value mapped from the snapshot file
     * costs only its key.
     */
    static long bytesOf(Change c) {
        long previous = c.type() == Type.MODIFIED && c.previous() != null ? heapBytes(c.previous()) : 0;
        return CHANGE_OVERHEAD + heapBytes(c.resource()) + previous;
    }

    private static long heapBytes(StoredResource r) {
        return r instanceof StoredValue v && v.isMapped() ? r.key().length() : r.storedBytes();
    }

    /**
     * The view moved its values to the snapshot file: {@code written} (in key order, one per key) now has its values
     * mapped in {@code mapped}, index by index. Each change that holds one of those resources is pointed at the mapped
     * copy, so that the ring does not keep alive on the heap what the index no longer holds there.
     */
    public void swapIn(StoredResource[] written, StoredResource[] mapped) {
        for (long seq = oldestSeq; seq < nextSeq; seq++) {
            int slot = (int) (seq % capacity);
            Change c = ring[slot];
            StoredResource resource = mappedCopy(c.resource(), written, mapped);
            StoredResource previous = c.previous() == null ? null : mappedCopy(c.previous(), written, mapped);
            if (resource != c.resource() || previous != c.previous()) {
                Change swapped = new Change(c.seq(), c.partition(), c.offset(), c.type(), c.key(), resource, previous);
                bytes += bytesOf(swapped) - bytesOf(c);
                ring[slot] = swapped;
            }
        }
    }

    private static StoredResource mappedCopy(StoredResource r, StoredResource[] written, StoredResource[] mapped) {
        int i = Arrays.binarySearch(written, r, Comparator.comparing(StoredResource::key));
        return i >= 0 && written[i] == r ? mapped[i] : r;
    }

    /** The bytes the changes in the ring hold, as {@link #bytesOf} counts them. */
    public long bytes() {
        return bytes;
    }

    /** Changes in the ring. */
    public long size() {
        return nextSeq - oldestSeq;
    }

    private static StoredResource deleted(String key, StoredResource previous) {
        return previous != null ? previous : StoredResource.absent(key);
    }

    /** Moves the position up to {@code read} (the reader's positions, per partition); it never goes back. */
    public void advance(long[] read) {
        for (int p = 0; p < read.length; p++) {
            positions[p] = Math.max(positions[p], read[p]);
        }
    }

    /** The current position. */
    public WatchPosition position() {
        return new WatchPosition(positions);
    }

    /** Whether the position has reached {@code target} in every partition both know. */
    public boolean reached(long[] target) {
        for (int p = 0; p < target.length && p < positions.length; p++) {
            if (positions[p] < target[p]) {
                return false;
            }
        }
        return true;
    }

    /** Why the ring cannot replay from {@code from} (a position in {@code topic}), or null when it can. */
    public String replayProblem(long[] from, String topic) {
        if (from.length != positions.length) {
            return "the position has " + from.length + " partitions but " + topic + " has " + positions.length;
        }
        for (int p = 0; p < positions.length; p++) {
            if (from[p] < Math.max(startOffsets[p], evictedBelow[p])) {
                return "the position is too old for partition " + p + " (offset " + from[p]
                    + ", oldest available " + Math.max(startOffsets[p], evictedBelow[p]) + ")";
            }
        }
        return null;
    }

    /** The number of the oldest change still in the ring. */
    public long firstSeq() {
        return oldestSeq;
    }

    /** The number the next change will get. */
    public long nextSeq() {
        return nextSeq;
    }

    /**
     * Changes from {@code fromSeq} on, at most {@code max}; evicted when the oldest of them has left the ring. The batch
     * carries the position when it reaches the newest change.
     */
    public Batch read(long fromSeq, int max) {
        if (fromSeq < oldestSeq) {
            return new Batch(List.of(), fromSeq, null, true);
        }
        List<Change> out = new ArrayList<>();
        long next = fromSeq;
        while (next < nextSeq && out.size() < max) {
            out.add(ring[(int) (next++ % capacity)]);
        }
        return new Batch(out, next, next == nextSeq ? position() : null, false);
    }

    /** Changes behind the newest of a watcher at {@code seq}; the basis of the slow-client cut-off. */
    public long backlog(long seq) {
        return nextSeq - seq;
    }
}
