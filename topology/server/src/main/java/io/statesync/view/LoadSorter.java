package io.statesync.view;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SortedMap;

/**
 * The records of the view's first catch-up, as the topic hands them over, sorted once at its end into the latest
 * resource per key in key order.
 *
 * <p>Why not sort the hash map's values at the end ({@link SortedRun#sortedOf}): {@link KeyOrder} packs each key there,
 * reaching every resource, its key string and the string's bytes once more, scattered over a heap where each key sits
 * beside a value many times its size, so nearly every reach misses the caches, and during a wiped restore that pass
 * competes with the restore threads for memory. Here a key is packed as it is read, while its bytes are still in the
 * cache, into arrays sized from the topic's offsets; the end then sorts dense arrays and builds the run from them,
 * visiting no resource.
 *
 * <p>Every record takes a slot, in read order, so a key written twice has two, and the sort's stability puts the later
 * one last. The arrays hold as many slots as the catch-up was expected to read; when more come (writes during the
 * load), or a key has a character above Latin-1 (never valid), the sorter gives up, and the caller sorts its hash map
 * instead. Not thread-safe: the view's poller owns it.
 */
public final class LoadSorter {

    private static final int WORDS = KeyOrder.WORDS;
    /** The most records it takes on: 8M, 256 MB of arrays. */
    static final int MAX_SLOTS = 1 << 23;

    private final int capacity;
    private String[] keys;
    private StoredResource[] values;
    /** Word {@code w} of slot {@code i} at {@code w * capacity + i}: each radix pass then reads one dense column. */
    private long[] words;
    private int size;
    /** The characters every key is expected to share, known once {@link KeyOrder#PREFIX_SAMPLE} keys are in; or -1. */
    private int from = -1;
    /** A key past the sample did not share its prefix: every key is packed again, from the prefix all share, at the end. */
    private boolean repack;

    private LoadSorter(int capacity) {
        this.capacity = capacity;
        this.keys = new String[capacity];
        this.values = new StoredResource[capacity];
        this.words = new long[WORDS * capacity];
    }

    /**
     * A sorter with room for {@code records} records and some slack, or null above {@link #MAX_SLOTS}: its arrays take
     * 32 bytes per record for the whole catch-up, and a topic whose cleaner lags may hold many records per key, while
     * the sort of the hash map at the end needs about as much per key.
     */
    public static LoadSorter forRecords(long records) {
        long capacity = records + records / 16 + 1024;
        return capacity > MAX_SLOTS ? null : new LoadSorter((int) capacity);
    }

    /**
     * Notes that {@code key} now holds {@code latest} (null: deleted). Returns false when the sorter has given up; the
     * caller then drops it.
     */
    public boolean add(String key, StoredResource latest) {
        if (keys == null) {
            return false;
        }
        if (size == capacity) {
            giveUp();
            return false;
        }
        int i = size++;
        keys[i] = key;
        values[i] = latest;
        if (from < 0) {
            if (size == KeyOrder.PREFIX_SAMPLE) {
                from = KeyOrder.sharedPrefix(k -> keys[k], size);
                return packAll();
            }
            return true;
        }
        if (repack) {
            return true;
        }
        if (!key.regionMatches(0, keys[0], 0, from)) {
            repack = true;
            return true;
        }
        return KeyOrder.packKey(key, from, words, capacity, i) || giveUp();
    }

    /**
     * The latest resource of every key that has one, in key order, as a read-only sorted run that a sorted map's
     * constructor or {@code putAll} builds from in linear time; null when the sorter gave up. The sorter is spent
     * afterwards.
     */
    public SortedMap<String, StoredResource> sorted() {
        if (keys == null) {
            return null;
        }
        if (from < 0 || repack) {
            from = size == 0 ? 0 : KeyOrder.sharedPrefix(k -> keys[k], size);
            Arrays.fill(words, 0L);
            if (!packAll()) {
                return null;
            }
        }
        int[] order = KeyOrder.radixOrder(words, size, capacity);
        String[] sortedKeys = new String[size];
        StoredResource[] sortedValues = new StoredResource[size];
        int kept = 0;
        int runStart = 0;
        for (int i = 1; i <= size; i++) {
            if (i < size && KeyOrder.samePacked(words, capacity, order[i - 1], order[i])) {
                continue;
            }
            kept = keepLatest(order, runStart, i, sortedKeys, sortedValues, kept);
            runStart = i;
        }
        giveUp();
        return new SortedRun(sortedKeys, sortedValues, kept);
    }

    private boolean packAll() {
        for (int i = 0; i < size; i++) {
            if (!KeyOrder.packKey(keys[i], from, words, capacity, i)) {
                return giveUp();
            }
        }
        return true;
    }

    /**
     * Appends, for the slots {@code order[start..end)} (equal packed bytes, in read order), the latest resource of each
     * of their keys, in key order, skipping keys whose latest record deleted them.
     */
    private int keepLatest(int[] order, int start, int end, String[] outKeys, StoredResource[] outValues, int kept) {
        if (!sameKey(order, start, end)) {
            // Keys that go on past the packed window: order the run by the whole key. The sort is stable, so each key's
            // slots stay in read order.
            Integer[] run = new Integer[end - start];
            for (int i = start; i < end; i++) {
                run[i - start] = order[i];
            }
            Arrays.sort(run, Comparator.comparing(slot -> keys[slot]));
            for (int i = start; i < end; i++) {
                order[i] = run[i - start];
            }
        }
        for (int i = start; i < end; i++) {
            boolean lastOfKey = i + 1 == end || !keys[order[i]].equals(keys[order[i + 1]]);
            StoredResource latest = values[order[i]];
            if (lastOfKey && latest != null) {
                outKeys[kept] = keys[order[i]];
                outValues[kept++] = latest;
            }
        }
        return kept;
    }

    /** Whether all the run's slots hold one key: the usual run, a key read more than once (the same string, in the view). */
    private boolean sameKey(int[] order, int start, int end) {
        String first = keys[order[start]];
        for (int i = start + 1; i < end; i++) {
            if (!first.equals(keys[order[i]])) {
                return false;
            }
        }
        return true;
    }

    private boolean giveUp() {
        keys = null;
        values = null;
        words = null;
        return false;
    }
}
