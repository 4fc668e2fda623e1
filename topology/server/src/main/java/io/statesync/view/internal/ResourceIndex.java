package io.statesync.view.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.statesync.view.LoadSorter;
import io.statesync.view.ResourceView.Page;
import io.statesync.view.SortedRun;
import io.statesync.view.StoredResource;
import io.statesync.view.WatchPosition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The latest resource per key, in one concurrent skip list: point reads without a lock, and lists in key order.
 *
 * <p>Why one map: the view holds every resource of the topic, and per key the map's own nodes are the heap that grows
 * with it, beside the key and the resource themselves. A hash map for point reads beside a tree for lists held two
 * nodes per key, each larger than a skip list's node and its share of the index; one skip list serves both, lock-free
 * for readers, at the cost of a walk instead of a hash for a point read.
 *
 * <p>While the view first reads the topic from the beginning a hash map is kept instead, sized ahead so that it never
 * rehashes; the skip list is built once at the end ({@link #sortLoad}), because inserting record by record, in the
 * hash order the partitions deliver them, costs a walk per record, where a sort and a build in linear time cost far
 * less. The sort works on keys packed as they are read ({@link LoadSorter}), so it reaches no resource again; when
 * that sorter gives up, the hash map's values are sorted by packed key bytes ({@link io.statesync.view.KeyOrder}),
 * which reaches each key once instead of at every comparison. The hash map is dropped once the skip list holds the
 * same resources, and point reads move to it in one step. A start from a snapshot builds the skip list from the
 * snapshot's map and keeps it up to date from the first record.
 *
 * <p>Threads: {@link #get} and {@link #size} read without a lock. Everything else runs on the view's poller, and the
 * map is changed, and walked in key order, only under the view's lock ({@code ResourceView}); the methods that say so
 * are called under it.
 */
public final class ResourceIndex {

    /** The record count above which the hash map is not sized ahead (it then grows as usual). */
    private static final long MAX_PRESIZE = 1L << 24;
    private static final Logger LOG = LoggerFactory.getLogger(ResourceIndex.class);

    /**
     * Where point reads look: the hash map of the first catch-up until its end, then {@link #sorted}. Before the first
     * record it is replaced by a hash map sized for the topic (so that loading never rehashes).
     */
    private volatile ConcurrentMap<String, StoredResource> byKey = new ConcurrentHashMap<>();
    /** Empty until the first catch-up ends, unless the view started from a snapshot; then {@link #byKey} too. */
    private ConcurrentSkipListMap<String, StoredResource> sorted = new ConcurrentSkipListMap<>();
    /** Whether {@link #sorted} is the map, kept up to date record by record. */
    private boolean sortedLive;
    /** The resources held, since a skip list counts its size by no contract in constant time; changed under the lock. */
    private volatile int count;
    /** Until the first catch-up ends without a snapshot: its records, for building {@link #sorted} once; or null. */
    private LoadSorter loadSorter;

    /** The latest resource of {@code key}, or null when it has none; without a lock. */
    public StoredResource get(String key) {
        return byKey.get(key);
    }

    public int size() {
        return count;
    }

    /** Before anything is read: sizes the hash map for the {@code records} the topic holds. */
    public void expect(long records) {
        byKey = new ConcurrentHashMap<>((int) Math.min(records, MAX_PRESIZE));
    }

    /** The view reads the topic from the beginning: its records are packed as they come, to be sorted at the end. */
    public void loadFromBeginning(long records) {
        loadSorter = LoadSorter.forRecords(records);
    }

    /**
     * Returns the bytes of a snapshot's values; {@link #useSorted} then builds the map from the snapshot's map, in
     * linear time, and the snapshot's map can go.
     */
    public long fill(TreeMap<String, StoredResource> snapshot) {
        long valueBytes = 0;
        for (StoredResource r : snapshot.values()) {
            valueBytes += StoredValue.of(r).valueLength();
        }
        return valueBytes;
    }

    /** Sets {@code key} from {@code previous} (as {@link #get} found it) to {@code now}; null is absent. Under the lock. */
    public void put(String key, StoredResource previous, StoredResource now) {
        StoredResource replaced = now == null ? byKey.remove(key) : byKey.put(key, now);
        int delta = (now == null ? 0 : 1) - (replaced == null ? 0 : 1);
        if (delta != 0) {
            count += delta;
        }
        if (!sortedLive && loadSorter != null && (now != null || previous != null) && !loadSorter.add(key, now)) {
            loadSorter = null;
        }
    }

    /** Whether the sorted map is up to date. */
    public boolean sortedLive() {
        return sortedLive;
    }

    /**
     * The skip list of the first catch-up, built without the lock from the records as they were read, else by sorting
     * the hash map's values; in linear time either way. {@link #useSorted} then installs it.
     */
    public ConcurrentSkipListMap<String, StoredResource> sortLoad() {
        SortedMap<String, StoredResource> run = loadSorter == null ? null : loadSorter.sorted();
        loadSorter = null;
        if (run != null && run.size() == byKey.size()) {
            return new ConcurrentSkipListMap<>(run);
        }
        if (run != null) {
            LOG.warn("The resource view's sorted load holds {} resources but its map {}; sorting the map instead",
                run.size(), byKey.size());
        }
        return new ConcurrentSkipListMap<>(SortedRun.sortedOf(byKey.values()));
    }

    /**
     * Makes {@code resources} (all of the index's resources, in key order) the map, kept up to date from now on: a
     * skip list as {@link #sortLoad} builds it is taken as it is; any other map, such as a snapshot's, is copied into
     * one in linear time. Point reads move to it at once and the hash map of the load goes. Under the lock.
     */
    public void useSorted(SortedMap<String, StoredResource> resources) {
        sorted = resources instanceof ConcurrentSkipListMap<String, StoredResource> list ? list
            : new ConcurrentSkipListMap<>(resources);
        count = sorted.size();
        // Nothing changes the index while this runs (the poller is here), so both maps hold the same resources and a
        // point read finds each key in whichever it reads.
        byKey = sorted;
        sortedLive = true;
    }

    /** A page in key order after {@code afterKey}, tagged with {@code position}. Under the lock. */
    public Page page(Predicate<StoredResource> filter, String afterKey, int limit, WatchPosition position) {
        return page(filter, afterKey, limit, Long.MAX_VALUE, position);
    }

    /**
     * A page in key order after {@code afterKey}, tagged with {@code position}, of at most {@code limit} resources and
     * {@code maxBytes} of them ({@link StoredResource#storedBytes}; the first always fits). Under the lock.
     */
    public Page page(Predicate<StoredResource> filter, String afterKey, int limit, long maxBytes, WatchPosition position) {
        Collection<Map.Entry<String, StoredResource>> tail = afterKey == null ? sorted.entrySet()
            : sorted.tailMap(afterKey, false).entrySet();
        List<StoredResource> items = new ArrayList<>();
        String last = null;
        boolean more = false;
        long bytes = 0;
        for (Map.Entry<String, StoredResource> e : tail) {
            if (!filter.test(e.getValue())) {
                continue;
            }
            long size = e.getValue().storedBytes();
            if (items.size() == limit || !items.isEmpty() && bytes + size > maxBytes) {
                more = true;
                break;
            }
            bytes += size;
            items.add(e.getValue());
            last = e.getKey();
        }
        return new Page(items, position, more ? last : null);
    }

    /** Up to {@code max} resources in key order after {@code afterKey} (from the first when null). Under the lock. */
    public List<StoredResource> chunk(String afterKey, int max) {
        Collection<StoredResource> tail = afterKey == null ? sorted.values() : sorted.tailMap(afterKey, false).values();
        List<StoredResource> out = new ArrayList<>(Math.min(max, count));
        for (StoredResource r : tail) {
            if (out.size() == max) {
                break;
            }
            out.add(r);
        }
        return out;
    }

    /** Up to {@code max} resources whose keys start with {@code prefix}, in key order. Under the lock. */
    public List<StoredResource> prefixed(String prefix, int max) {
        List<StoredResource> out = new ArrayList<>();
        for (Map.Entry<String, StoredResource> e : sorted.tailMap(prefix, true).entrySet()) {
            if (out.size() == max || !e.getKey().startsWith(prefix)) {
                break;
            }
            out.add(e.getValue());
        }
        return out;
    }

    /** Every resource in key order. Under the lock. */
    public StoredResource[] sortedArray() {
        return sorted.values().toArray(new StoredResource[0]);
    }

    /** The sorted map's resources in key order, live: for a caller that knows nothing changes them any more. */
    public Collection<StoredResource> sortedValues() {
        return sorted.values();
    }

    /**
     * Replaces each of {@code written} that the index still holds with its counterpart in {@code mapped} (both in key
     * order), telling {@code swapped} of each: one pass over the map beside the arrays, which replaces only a key whose
     * resource is still the one written. Returns how many were replaced. Under the lock.
     */
    public int swapIn(StoredResource[] written, StoredResource[] mapped, Consumer<StoredResource> swapped) {
        int replaced = 0;
        int i = 0;
        for (Map.Entry<String, StoredResource> e : sorted.entrySet()) {
            while (i < written.length && written[i].key().compareTo(e.getKey()) < 0) {
                i++;
            }
            if (i == written.length) {
                break;
            }
            // A skip list's entries are copies: the value is set through the map, once the pass found it unchanged.
            if (e.getValue() == written[i] && sorted.replace(e.getKey(), written[i], mapped[i])) {
                swapped.accept(written[i]);
                replaced++;
            }
        }
        return replaced;
    }
}
