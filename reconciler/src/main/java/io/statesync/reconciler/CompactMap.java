package io.statesync.reconciler;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * An unmodifiable, insertion-ordered map held in one array of alternating keys and values. Trees are made of many
 * small maps that live as long as the state that holds them: a {@link HashMap} of three entries is a 16-slot table
 * and three nodes, and iterating it scans every slot, while decoded specs are iterated again and again (for
 * conversion, comparison and encoding) on the stream threads. Here a map of n entries is two
 * objects, and iteration walks the array.
 *
 * <p>Up to {@value #LINEAR_LIMIT} entries a lookup scans the keys; a larger map also carries an open-addressing
 * index, so lookups stay constant-time for the large maps a spec may hold (a config map's data). Keys are never
 * null; values may be.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public class CompactMap<K, V> extends AbstractMap<K, V> {
    static final int LINEAR_LIMIT = 8;

    private final Object[] slots;
    private final int size;
    private final int[] index;
    private Set<Entry<K, V>> entries;

    CompactMap(Object[] slots, int size) {
        this.slots = slots;
        this.size = size;
        this.index = size > LINEAR_LIMIT ? indexOf(slots, size) : null;
    }

    /**
     * The builder's entries and, above {@value #LINEAR_LIMIT} of them, the index it kept while checking for
     * repeated keys.
     */
    CompactMap(Builder<?, ?> built) {
        this.size = built.size;
        this.index = built.index;
        this.slots = built.take();
    }

    /** A compact copy of {@code map}, in its iteration order; {@code map} itself when it is one already. */
    @SuppressWarnings("unchecked")
    public static <K, V> CompactMap<K, V> copyOf(Map<? extends K, ? extends V> map) {
        if (map instanceof CompactMap<?, ?> compact) {
            return (CompactMap<K, V>) compact;
        }
        // A map's keys are distinct already, so the copy skips the builder's check for repeated keys.
        Object[] slots = new Object[2 * map.size()];
        int at = 0;
        for (Map.Entry<? extends K, ? extends V> e : map.entrySet()) {
            if (at == slots.length) {
                throw new ConcurrentModificationException();
            }
            slots[at++] = Objects.requireNonNull(e.getKey(), "key");
            slots[at++] = e.getValue();
        }
        if (at != slots.length) {
            throw new ConcurrentModificationException();
        }
        return new CompactMap<>(slots, at / 2);
    }

    public static <K, V> Builder<K, V> builder(int expectedSize) {
        return new Builder<>(expectedSize);
    }

    /** The key of the {@code i}th entry in iteration order: hot loops walk the entries without an iterator. */
    @SuppressWarnings("unchecked")
    public final K keyAt(int i) {
        Objects.checkIndex(i, size);
        return (K) slots[2 * i];
    }

    /** The value of the {@code i}th entry in iteration order. */
    @SuppressWarnings("unchecked")
    public final V valueAt(int i) {
        Objects.checkIndex(i, size);
        return (V) slots[2 * i + 1];
    }

    @Override
    public final int size() {
        return size;
    }

    @Override
    public final boolean isEmpty() {
        return size == 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public final V get(Object key) {
        int i = find(key);
        return i < 0 ? null : (V) slots[2 * i + 1];
    }

    @Override
    public final boolean containsKey(Object key) {
        return find(key) >= 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public final void forEach(BiConsumer<? super K, ? super V> action) {
        for (int i = 0; i < size; i++) {
            action.accept((K) slots[2 * i], (V) slots[2 * i + 1]);
        }
    }

    @Override
    public final Set<Entry<K, V>> entrySet() {
        Set<Entry<K, V>> es = entries;
        if (es == null) {
            es = new EntrySet();
            entries = es;
        }
        return es;
    }

    private int find(Object key) {
        if (key == null) {
            return -1;
        }
        return index == null ? scan(slots, size, key) : probe(index, slots, key);
    }

    /**
     * The position of {@code key} among the first {@code size} keys, or -1. Keys are mostly Strings, whose hash is
     * cached once computed, so comparing hashes first spares the equals of every other key.
     */
    private static int scan(Object[] slots, int size, Object key) {
        int h = key.hashCode();
        for (int i = 0; i < size; i++) {
            Object k = slots[2 * i];
            if (k == key || (k.hashCode() == h && key.equals(k))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The index of the first {@code size} keys: entry i + 1 at its key's hash, probing linearly. At most half full,
     * so every probe meets an empty slot.
     */
    private static int[] indexOf(Object[] slots, int size) {
        int[] table = new int[Integer.highestOneBit(size * 2 - 1) << 1];
        for (int i = 0; i < size; i++) {
            insert(table, slots, i);
        }
        return table;
    }

    private static void insert(int[] table, Object[] slots, int i) {
        int mask = table.length - 1;
        int at = spread(slots[2 * i].hashCode()) & mask;
        while (table[at] != 0) {
            at = (at + 1) & mask;
        }
        table[at] = i + 1;
    }

    private static int probe(int[] table, Object[] slots, Object key) {
        int mask = table.length - 1;
        for (int at = spread(key.hashCode()) & mask; ; at = (at + 1) & mask) {
            int slot = table[at];
            if (slot == 0) {
                return -1;
            }
            if (key.equals(slots[2 * (slot - 1)])) {
                return slot - 1;
            }
        }
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }

    private final class EntrySet extends AbstractSet<Entry<K, V>> {
        @Override
        public Iterator<Entry<K, V>> iterator() {
            return new Iterator<>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < size;
                }

                @Override
                public Entry<K, V> next() {
                    if (next >= size) {
                        throw new NoSuchElementException();
                    }
                    int i = next++;
                    return new SimpleImmutableEntry<>(keyAt(i), valueAt(i));
                }
            };
        }

        @Override
        public int size() {
            return size;
        }
    }

    /**
     * Collects entries in order; putting a key again replaces its value in its first position, as
     * {@link java.util.LinkedHashMap} does. Not reusable: {@link #build} hands its array to the map.
     */
    public static final class Builder<K, V> {
        private Object[] slots;
        private int size;
        /**
         * The map's own index, kept from {@value CompactMap#LINEAR_LIMIT} entries on, so that checking for repeats
         * stays linear and the map needs no index of its own built again.
         */
        private int[] index;

        private Builder(int expectedSize) {
            slots = new Object[2 * Math.max(expectedSize, 0)];
        }

        /** @throws NullPointerException for a null key */
        public Builder<K, V> put(K key, V value) {
            Objects.requireNonNull(key, "key");
            int at = positionOf(key);
            if (at >= 0) {
                open()[2 * at + 1] = value;
                return this;
            }
            Object[] s = open();
            if (2 * size == s.length) {
                slots = s = Arrays.copyOf(s, Math.max(8, s.length * 2));
            }
            s[2 * size] = key;
            s[2 * size + 1] = value;
            size++;
            if (index != null) {
                if (index.length < 2 * size) {
                    index = indexOf(s, size);
                } else {
                    insert(index, s, size - 1);
                }
            }
            return this;
        }

        public int size() {
            return size;
        }

        public CompactMap<K, V> build() {
            return new CompactMap<>(this);
        }

        /** The entries so far, trimmed; the builder is spent. */
        private Object[] take() {
            Object[] s = open();
            slots = null;
            return s.length == 2 * size ? s : Arrays.copyOf(s, 2 * size);
        }

        private int positionOf(Object key) {
            Object[] s = open();
            if (index != null) {
                return probe(index, s, key);
            }
            int at = scan(s, size, key);
            if (at < 0 && size == LINEAR_LIMIT) {
                // Past this a linear check per put would make building a large map quadratic.
                index = indexOf(s, size);
            }
            return at;
        }

        private Object[] open() {
            if (slots == null) {
                throw new IllegalStateException("already built");
            }
            return slots;
        }
    }
}
