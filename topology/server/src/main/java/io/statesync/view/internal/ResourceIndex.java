package io.statesync.view.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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
 * The latest resource per key, twice: a hash map for point reads, and a sorted map for lists in key order.
 *
 * <p>While the view first reads the topic from the beginning only the hash map is kept, sized ahead so that it never
 * rehashes; the sorted map is built once at the end ({@link #sortLoad}), because keeping it sorted record by record,
 * in the hash order the partitions deliver them, costs a tree walk and rebalancing per record, where a sort and a
 * build in linear time cost far less. The sort works on keys packed as they are read ({@link LoadSorter}), so it
 * reaches no resource again; when that sorter gives up, the hash map's values are sorted by packed key bytes
 * ({@link io.statesync.view.KeyOrder}), which reaches each key once instead of at every comparison. A start from a
 * snapshot gets the sorted map whole and keeps it up to date from the first record.
 *
 * <p>Threads: {@link #get} and {@link #size} read the hash map without a lock. Everything else runs on the view's
 * poller, and the sorted map is read and changed only under the view's lock ({@code ResourceView}); the methods
 * that say so are called under it.
 */
public final class ResourceIndex {

    /** The record count above which the hash map is not sized ahead (it then grows as usual). */
    private static final long MAX_PRESIZE = 1L << 24;
    private static final Logger LOG = LoggerFactory.getLogger(ResourceIndex.class);

    /** Empty until the first catch-up ends, unless the view started from a snapshot. Under the view's lock. */
    private TreeMap<String, StoredResource> sorted = new TreeMap<>();
    /** Replaced once, before the first record, by a map sized for the topic (so that loading never rehashes). */
    private volatile ConcurrentHashMap<String, StoredResource> byKey = new ConcurrentHashMap<>();
    /** Whether {@link #sorted} is kept up to date record by record. */
    private boolean sortedLive;
    /** Until the first catch-up ends without a snapshot: its records, for building {@link #sorted} once; or null. */
    private LoadSorter loadSorter;

    /** The latest resource of {@code key}, or null when it has none; without a lock. */
    public StoredResource get(String key) {
        return byKey.get(key);
    }

    public int size() {
        return byKey.size();
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
     * Takes a snapshot's resources into the hash map; returns the bytes of their values. {@link #useSorted} then takes
     * the snapshot's map itself.
     */
    public long fill(TreeMap<String, StoredResource> snapshot) {
        long valueBytes = 0;
        // One put each: putAll presizes for the incoming count again, which doubles a table already sized for it.
        for (StoredResource r : snapshot.values()) {
            byKey.put(r.key(), r);
            valueBytes += StoredValue.of(r).valueLength();
        }
        return valueBytes;
    }

    /** Sets {@code key} from {@code previous} (as {@link #get} found it) to {@code now}; null is absent. Under the lock. */
    public void put(String key, StoredResource previous, StoredResource now) {
        if (now == null) {
            byKey.remove(key);
        } else {
            byKey.put(key, now);
        }
        if (sortedLive) {
            if (now == null) {
                sorted.remove(key);
            } else {
                sorted.put(key, now);
            }
        } else if (loadSorter != null && (now != null || previous != null) && !loadSorter.add(key, now)) {
            loadSorter = null;
        }
    }

    /** Whether the sorted map is up to date. */
    public boolean sortedLive() {
        return sortedLive;
    }

    /**
     * The sorted map of the first catch-up, without the lock: from the records as they were read, else by sorting the
     * hash map's values. {@link #useSorted} then installs it.
     */
    public TreeMap<String, StoredResource> sortLoad() {
        TreeMap<String, StoredResource> tree = loadSorter == null ? null : loadSorter.tree();
        loadSorter = null;
        if (tree != null && tree.size() == byKey.size()) {
            return tree;
        }
        if (tree != null) {
            LOG.warn("The resource view's sorted load holds {} resources but its map {}; sorting the map instead",
                tree.size(), byKey.size());
        }
        return SortedRun.treeOf(byKey.values());
    }

    /** Makes {@code tree} (all of the hash map's resources, in key order) the sorted map, kept up to date from now on. Under the lock. */
    public void useSorted(TreeMap<String, StoredResource> tree) {
        sorted = tree;
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
        List<StoredResource> out = new ArrayList<>(Math.min(max, sorted.size()));
        for (StoredResource r : tail) {
            if (out.size() == max) {
                break;
            }
            out.add(r);
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
     * order), telling {@code swapped} of each: one pass over the sorted map beside the arrays, so no key is looked up
     * in the tree. Returns how many were replaced. Under the lock.
     */
    public int swapIn(StoredResource[] written, StoredResource[] mapped, Consumer<StoredResource> swapped) {
        int count = 0;
        int i = 0;
        for (Map.Entry<String, StoredResource> e : sorted.entrySet()) {
            while (i < written.length && written[i].key().compareTo(e.getKey()) < 0) {
                i++;
            }
            if (i == written.length) {
                break;
            }
            if (e.getValue() == written[i]) {
                e.setValue(mapped[i]);
                byKey.replace(e.getKey(), written[i], mapped[i]);
                swapped.accept(written[i]);
                count++;
            }
        }
        return count;
    }
}
