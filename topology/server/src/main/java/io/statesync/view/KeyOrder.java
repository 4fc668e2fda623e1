package io.statesync.view;

import java.util.Arrays;
import java.util.Comparator;
import java.util.function.IntFunction;

/**
 * Sorts resources by key, in {@link String#compareTo} order, for the view's one-time build after reading the whole
 * resources topic when {@link LoadSorter} could not do it; that class shares the packing and the radix passes.
 *
 * <p>Why not {@code Arrays.sort} by {@link StoredResource#key()}: each of its n log n comparisons follows three
 * references (resource, string, its bytes) into a large heap where every key sits next to a record value many times
 * its size, so nearly every comparison misses the caches, and during a wiped restore it competes with the restore
 * threads for memory. Here each key is read once: its 24 characters after the prefix that all keys share are packed,
 * one byte each, into three longs, and a least-significant-digit radix sort orders the resources' indices by those
 * bytes, reading only dense primitive arrays. Packed bytes order keys as {@code compareTo} does wherever they differ
 * (a key that ends inside the window pads with zero bytes, below every character, as {@code compareTo} puts a prefix
 * first), so only keys whose packed bytes are equal (in practice, keys that go on past the window) are compared as
 * strings.
 */
public final class KeyOrder {

    /** How many key characters the three longs hold. */
    static final int PACKED_CHARS = 24;
    static final int WORDS = PACKED_CHARS / Long.BYTES;
    /** How many keys suggest the shared prefix. */
    static final int PREFIX_SAMPLE = 1024;
    private static final long[] NOT_SHARED = new long[0];
    private static final Comparator<StoredResource> BY_KEY = Comparator.comparing(StoredResource::key);

    private KeyOrder() {
    }

    /** Sorts {@code resources} in place by key. */
    public static void sort(StoredResource[] resources) {
        int n = resources.length;
        if (n < 2) {
            return;
        }
        if (n > Integer.MAX_VALUE / WORDS) {
            // The packed words would not fit one array; a view this large does not fit a heap either.
            Arrays.sort(resources, BY_KEY);
            return;
        }
        // The prefix of a sample, checked for every key while it is packed: a separate pass over all the keys would
        // cost about as much as the packing, since reaching each key is what takes the time.
        long[] words = pack(resources, sharedPrefix(resources, Math.min(n, PREFIX_SAMPLE)));
        if (words == NOT_SHARED) {
            words = pack(resources, sharedPrefix(resources, n));
        }
        if (words == null) {
            // A character above Latin-1 does not fit a byte. Such keys are never valid, so they need not be quick.
            Arrays.sort(resources, BY_KEY);
            return;
        }
        int[] order = radixOrder(words, n, n);
        StoredResource[] input = resources.clone();
        for (int i = 0; i < n; i++) {
            resources[i] = input[order[i]];
        }
        sortTies(resources, words, order);
    }

    /** The length of the prefix that the first {@code count} keys have in common. */
    static int sharedPrefix(StoredResource[] resources, int count) {
        return sharedPrefix(i -> resources[i].key(), count);
    }

    /** The length of the prefix that keys 0 to {@code count - 1} have in common; {@code count} must be at least 1. */
    static int sharedPrefix(IntFunction<String> keyAt, int count) {
        String first = keyAt.apply(0);
        int shared = first.length();
        for (int i = 1; i < count && shared > 0; i++) {
            String key = keyAt.apply(i);
            int n = Math.min(shared, key.length());
            int j = 0;
            while (j < n && key.charAt(j) == first.charAt(j)) {
                j++;
            }
            shared = j;
        }
        return shared;
    }

    /**
     * Word {@code w} of resource {@code i} at {@code w * n + i}; {@link #NOT_SHARED} when a key does not start with the
     * first key's {@code from} characters, null when a packed character is above Latin-1.
     */
    private static long[] pack(StoredResource[] resources, int from) {
        int n = resources.length;
        String first = resources[0].key();
        long[] words = new long[WORDS * n];
        for (int i = 0; i < n; i++) {
            String key = resources[i].key();
            if (!key.regionMatches(0, first, 0, from)) {
                return NOT_SHARED;
            }
            if (!packKey(key, from, words, n, i)) {
                return null;
            }
        }
        return words;
    }

    /**
     * Packs the {@link #PACKED_CHARS} characters of {@code key} from {@code from} on into the words of item {@code i}
     * (word {@code w} at {@code w * stride + i}, which must be zero); false, with the words part-written, when one of
     * them is above Latin-1.
     */
    static boolean packKey(String key, int from, long[] words, int stride, int i) {
        int end = Math.min(key.length(), from + PACKED_CHARS);
        for (int at = from; at < end; at++) {
            char ch = key.charAt(at);
            if (ch > 0xFF) {
                return false;
            }
            int pos = at - from;
            words[(pos >>> 3) * stride + i] |= (long) ch << (56 - 8 * (pos & 7));
        }
        return true;
    }

    /**
     * The indices of the first {@code n} items (word {@code w} of item {@code i} at {@code w * stride + i}) in
     * packed-byte order: one stable counting pass per byte, the last byte first, so items with equal bytes keep their
     * index order. A byte that is the same in every key (padding, or a shared character past the prefix) orders
     * nothing, and its pass is skipped.
     */
    static int[] radixOrder(long[] words, int n, int stride) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        int[] spare = new int[n];
        int[] counts = new int[257];
        for (int pos = PACKED_CHARS - 1; pos >= 0; pos--) {
            int base = (pos >>> 3) * stride;
            int shift = 56 - 8 * (pos & 7);
            Arrays.fill(counts, 0);
            for (int i = 0; i < n; i++) {
                counts[(int) (words[base + i] >>> shift & 0xFF) + 1]++;
            }
            if (onlyOneValue(counts, n)) {
                continue;
            }
            for (int b = 1; b < counts.length; b++) {
                counts[b] += counts[b - 1];
            }
            for (int i = 0; i < n; i++) {
                int item = order[i];
                spare[counts[(int) (words[base + item] >>> shift & 0xFF)]++] = item;
            }
            int[] t = order;
            order = spare;
            spare = t;
        }
        return order;
    }

    private static boolean onlyOneValue(int[] counts, int n) {
        for (int c : counts) {
            if (c == n) {
                return true;
            }
        }
        return false;
    }

    /** Orders, by the whole key, each run of neighbours whose packed bytes are equal. */
    private static void sortTies(StoredResource[] sorted, long[] words, int[] order) {
        int n = sorted.length;
        int runStart = 0;
        for (int i = 1; i <= n; i++) {
            if (i < n && samePacked(words, n, order[i - 1], order[i])) {
                continue;
            }
            if (i - runStart > 1) {
                Arrays.sort(sorted, runStart, i, BY_KEY);
            }
            runStart = i;
        }
    }

    static boolean samePacked(long[] words, int stride, int a, int b) {
        for (int w = 0; w < WORDS; w++) {
            if (words[w * stride + a] != words[w * stride + b]) {
                return false;
            }
        }
        return true;
    }
}
