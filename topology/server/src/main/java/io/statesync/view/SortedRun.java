package io.statesync.view;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Resources already sorted by key, seen as a read-only {@link SortedMap} with natural key order, for one purpose:
 * {@link java.util.TreeMap#putAll} into an empty tree, and the constructor of
 * {@link java.util.concurrent.ConcurrentSkipListMap} that takes a sorted map, take a sorted map of the same order as a
 * sorted run and build in linear time, without comparing keys. The range views are not needed for that and are not
 * offered.
 */
public final class SortedRun extends AbstractMap<String, StoredResource> implements SortedMap<String, StoredResource> {

    /** Null when the keys are read from the resources; otherwise {@code keys[i]} is {@code byKey[i].key()}. */
    private final String[] keys;
    private final StoredResource[] byKey;
    private final int size;

    /**
     * {@code resources} (one per key, in any order) sorted once ({@link KeyOrder}), as a run to build a sorted map from
     * in linear time: that spares the walk per key of inserting them one by one, and the scattered key reads at every
     * comparison of a plain sort.
     */
    public static SortedMap<String, StoredResource> sortedOf(Collection<StoredResource> resources) {
        StoredResource[] all = resources.toArray(new StoredResource[0]);
        KeyOrder.sort(all);
        return new SortedRun(all);
    }

    /**
     * A new tree of {@code sorted}, which must already be in key order with no key twice (as a view snapshot holds
     * them): checked in one pass, then built in linear time without a sort.
     *
     * @throws IllegalArgumentException when two neighbours are out of order or equal
     */
    public static TreeMap<String, StoredResource> treeOfSorted(StoredResource[] sorted) {
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i - 1].key().compareTo(sorted[i].key()) >= 0) {
                throw new IllegalArgumentException("not in order at " + i + ": " + sorted[i - 1].key() + ", " + sorted[i].key());
            }
        }
        TreeMap<String, StoredResource> tree = new TreeMap<>();
        tree.putAll(new SortedRun(sorted));
        return tree;
    }

    /** {@code byKey} must be sorted by {@link StoredResource#key()} with no key twice; it is not copied. */
    SortedRun(StoredResource[] byKey) {
        this(null, byKey, byKey.length);
    }

    /**
     * The first {@code size} resources of {@code byKey}, with their keys at the same index of {@code keys}: a caller
     * that holds the keys in an array spares the build a visit to every resource, scattered over the heap.
     */
    SortedRun(String[] keys, StoredResource[] byKey, int size) {
        this.keys = keys;
        this.byKey = byKey;
        this.size = size;
    }

    @Override
    public Comparator<? super String> comparator() {
        return null;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Set<Map.Entry<String, StoredResource>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public Iterator<Map.Entry<String, StoredResource>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < size;
                    }

                    @Override
                    public Map.Entry<String, StoredResource> next() {
                        if (next == size) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return Map.entry(keyAt(i), byKey[i]);
                    }
                };
            }
        };
    }

    @Override
    public String firstKey() {
        return edge(0);
    }

    @Override
    public String lastKey() {
        return edge(size - 1);
    }

    private String edge(int i) {
        if (size == 0) {
            throw new NoSuchElementException();
        }
        return keyAt(i);
    }

    private String keyAt(int i) {
        return keys == null ? byKey[i].key() : keys[i];
    }

    @Override
    public SortedMap<String, StoredResource> subMap(String fromKey, String toKey) {
        throw new UnsupportedOperationException("a sorted run is only read whole");
    }

    @Override
    public SortedMap<String, StoredResource> headMap(String toKey) {
        throw new UnsupportedOperationException("a sorted run is only read whole");
    }

    @Override
    public SortedMap<String, StoredResource> tailMap(String fromKey) {
        throw new UnsupportedOperationException("a sorted run is only read whole");
    }
}
