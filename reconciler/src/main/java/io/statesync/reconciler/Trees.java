package io.statesync.reconciler;

import io.statesync.reconciler.internal.JsonWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.function.Function;

/**
 * Utilities for JSON-like trees: {@code null}, {@link Boolean}, {@link Long}, {@link Double}, {@link String},
 * {@code List<Object>} and {@code Map<String,Object>} (insertion-ordered). Trees returned by this module are
 * unmodifiable; a tree passed in is never changed.
 */
public final class Trees {
    private static final Class<?> FROZEN_MAP = Collections.unmodifiableMap(new LinkedHashMap<>()).getClass();
    private static final Class<?> FROZEN_LIST = Collections.unmodifiableList(new ArrayList<>()).getClass();

    private Trees() {
    }

    /**
     * A deep, unmodifiable copy with edge types normalised: Integer, Short, Byte and BigInteger become Long, Float and
     * BigDecimal become Double, any CharSequence (Avro's Utf8) becomes String, arrays and collections become lists,
     * map keys become strings. Parts that are already normalised are shared, not copied.
     *
     * @throws IllegalArgumentException for a value that has no tree form
     */
    public static Object normalize(Object value) {
        return isNormalized(value) ? value : copy(value);
    }

    /**
     * Checked first so that the common case, a tree this module built, costs no allocation: nothing at all for a
     * map or list built by {@link #mapBuilder}, {@link #listBuilder} or {@link #normalize}, a walk for any other
     * unmodifiable one.
     */
    private static boolean isNormalized(Object value) {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Long
                || value instanceof Double || value instanceof NormalizedMap || value instanceof NormalizedList) {
            return true;
        }
        if (value.getClass() == FROZEN_MAP) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                if (!(e.getKey() instanceof String) || !isNormalized(e.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (value.getClass() == FROZEN_LIST) {
            for (Object item : (List<?>) value) {
                if (!isNormalized(item)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    private static Object copy(Object value) {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Long
                || value instanceof Double) {
            return value;
        }
        if (value instanceof Map<?, ?> map) {
            return normalizeMap(map);
        }
        if (value instanceof Collection<?> items) {
            return normalizeList(items, value.getClass() == FROZEN_LIST);
        }
        if (value instanceof Object[] array) {
            return normalizeList(List.of(array), false);
        }
        return normalizeScalar(value);
    }

    private static Object normalizeScalar(Object value) {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float f) {
            return Double.valueOf(f.toString());
        }
        if (value instanceof BigInteger big) {
            return big.bitLength() < 64 ? (Object) big.longValue() : (Object) big.doubleValue();
        }
        if (value instanceof BigDecimal dec) {
            return dec.doubleValue();
        }
        if (value instanceof CharSequence || value instanceof Character) {
            return value.toString();
        }
        throw new IllegalArgumentException("not a tree value: " + value.getClass().getName());
    }

    private static Object normalizeMap(Map<?, ?> map) {
        boolean same = map.getClass() == FROZEN_MAP;
        CompactMap.Builder<String, Object> copy = CompactMap.builder(map.size());
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (e.getKey() == null) {
                throw new IllegalArgumentException("null map key in a tree");
            }
            Object v = normalize(e.getValue());
            same &= v == e.getValue() && e.getKey() instanceof String;
            copy.put(e.getKey().toString(), v);
        }
        return same ? map : new NormalizedMap(copy);
    }

    private static Object normalizeList(Collection<?> items, boolean frozen) {
        boolean same = frozen;
        ArrayList<Object> copy = new ArrayList<>(items.size());
        for (Object item : items) {
            Object v = normalize(item);
            same &= v == item;
            copy.add(v);
        }
        return same ? items : new NormalizedList(copy);
    }

    /**
     * A builder of a normalised map whose values are normalised already (scalars of the tree types, or maps and lists
     * of this module): each is checked as it is put, without walking it again when it was built here, and the map
     * needs no walk when {@link #normalize}d later. For converters that build trees bottom-up from another form.
     */
    public static MapBuilder mapBuilder(int expectedSize) {
        return new MapBuilder(expectedSize);
    }

    /** The list counterpart of {@link #mapBuilder}. */
    public static ListBuilder listBuilder(int expectedSize) {
        return new ListBuilder(expectedSize);
    }

    /**
     * The normalised map of {@code source}'s entries, each value converted by {@code convertValue}, for a converter
     * that builds trees bottom-up from another form. A {@link CompactMap}'s keys are distinct, so when they are all
     * Strings the map is built without {@link MapBuilder}'s check for a repeated key; other keys go through it.
     *
     * @throws IllegalArgumentException when a converted value is not a normalised tree
     */
    public static Map<String, Object> mapOf(CompactMap<?, ?> source, Function<Object, Object> convertValue) {
        int n = source.size();
        for (int i = 0; i < n; i++) {
            if (!(source.keyAt(i) instanceof String)) {
                MapBuilder b = mapBuilder(n);
                source.forEach((k, v) -> b.put(k.toString(), convertValue.apply(v)));
                return b.build();
            }
        }
        Object[] slots = new Object[2 * n];
        for (int i = 0; i < n; i++) {
            Object value = convertValue.apply(source.valueAt(i));
            checkEntry(source.keyAt(i), value);
            slots[2 * i] = source.keyAt(i);
            slots[2 * i + 1] = value;
        }
        return new NormalizedMap(n, slots);
    }

    private static void checkEntry(Object key, Object value) {
        if (key == null || !isNormalized(value)) {
            throw new IllegalArgumentException("not a normalised tree entry: " + key + "=" + value);
        }
    }

    /** See {@link #mapBuilder}. Not reusable: {@link #build} hands its entries to the map it returns. */
    public static final class MapBuilder {
        private CompactMap.Builder<String, Object> entries;

        private MapBuilder(int expectedSize) {
            entries = CompactMap.builder(expectedSize);
        }

        /** @throws IllegalArgumentException when {@code value} is not a normalised tree */
        public MapBuilder put(String key, Object value) {
            checkEntry(key, value);
            open().put(key, value);
            return this;
        }

        public Map<String, Object> build() {
            Map<String, Object> built = new NormalizedMap(open());
            entries = null;
            return built;
        }

        private CompactMap.Builder<String, Object> open() {
            if (entries == null) {
                throw new IllegalStateException("already built");
            }
            return entries;
        }
    }

    /** See {@link #listBuilder}. Not reusable: {@link #build} hands its items to the list it returns. */
    public static final class ListBuilder {
        private ArrayList<Object> items;

        private ListBuilder(int expectedSize) {
            items = new ArrayList<>(expectedSize);
        }

        /** @throws IllegalArgumentException when {@code item} is not a normalised tree */
        public ListBuilder add(Object item) {
            if (!isNormalized(item)) {
                throw new IllegalArgumentException("not a normalised tree item: " + item);
            }
            open().add(item);
            return this;
        }

        public List<Object> build() {
            List<Object> built = new NormalizedList(open());
            items = null;
            return built;
        }

        private ArrayList<Object> open() {
            if (items == null) {
                throw new IllegalStateException("already built");
            }
            return items;
        }
    }

    /**
     * An unmodifiable map that only this class builds, from entries whose values are normalised: its type alone
     * says it is normalised, so {@link #normalize} of it costs no walk. Nothing else holds its entries.
     */
    private static final class NormalizedMap extends CompactMap<String, Object> {
        NormalizedMap(CompactMap.Builder<String, Object> entries) {
            super(entries);
        }

        NormalizedMap(int size, Object[] slots) {
            super(slots, size);
        }
    }

    /** The list counterpart of {@link NormalizedMap}. */
    private static final class NormalizedList extends AbstractList<Object> implements RandomAccess {
        private final List<Object> items;

        NormalizedList(ArrayList<Object> items) {
            this.items = items;
        }

        @Override
        public Object get(int index) {
            return items.get(index);
        }

        @Override
        public int size() {
            return items.size();
        }

        @Override
        public boolean equals(Object o) {
            return o == this || items.equals(o);
        }

        @Override
        public int hashCode() {
            return items.hashCode();
        }
    }

    /** Builds a normalised map from alternating keys and values: {@code map("image", "nginx", "replicas", 2)}. */
    public static Map<String, Object> map(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must alternate");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put(keysAndValues[i].toString(), keysAndValues[i + 1]);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> frozen = (Map<String, Object>) normalize(m);
        return frozen;
    }

    /** Builds a normalised list. */
    public static List<Object> list(Object... items) {
        @SuppressWarnings("unchecked")
        List<Object> frozen = (List<Object>) normalize(new ArrayList<>(java.util.Arrays.asList(items)));
        return frozen;
    }

    /**
     * Structural equality. Without strict typing numbers compare by value, so 5 equals 5.0 (Python's avro writes an
     * int into a long/double union as a double); with it a long never equals a double.
     */
    public static boolean deepEquals(Object a, Object b, boolean strictTyping) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        Class<?> type = a.getClass();
        if (type == b.getClass() && (type == String.class || type == Long.class || type == Boolean.class)) {
            return a.equals(b);
        }
        if (a instanceof Number x && b instanceof Number y) {
            return numbersEqual(x, y, strictTyping);
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            return mapsEqual(x, y, strictTyping);
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            return listsEqual(x, y, strictTyping);
        }
        return a.equals(b);
    }

    private static boolean mapsEqual(Map<?, ?> x, Map<?, ?> y, boolean strictTyping) {
        if (x.size() != y.size()) {
            return false;
        }
        for (Map.Entry<?, ?> e : x.entrySet()) {
            Object other = y.get(e.getKey());
            if ((other == null && !y.containsKey(e.getKey())) || !deepEquals(e.getValue(), other, strictTyping)) {
                return false;
            }
        }
        return true;
    }

    private static boolean listsEqual(List<?> x, List<?> y, boolean strictTyping) {
        if (x.size() != y.size()) {
            return false;
        }
        for (int i = 0; i < x.size(); i++) {
            if (!deepEquals(x.get(i), y.get(i), strictTyping)) {
                return false;
            }
        }
        return true;
    }

    private static boolean numbersEqual(Number x, Number y, boolean strictTyping) {
        boolean xi = isIntegral(x);
        boolean yi = isIntegral(y);
        if (xi && yi) {
            return x.longValue() == y.longValue();
        }
        if (!xi && !yi) {
            return doublesEqual(x.doubleValue(), y.doubleValue());
        }
        if (strictTyping) {
            return false;
        }
        return xi ? longEqualsDouble(x.longValue(), y.doubleValue()) : longEqualsDouble(y.longValue(), x.doubleValue());
    }

    private static boolean doublesEqual(double x, double y) {
        return x == y || (Double.isNaN(x) && Double.isNaN(y));
    }

    private static boolean longEqualsDouble(long l, double d) {
        // (long) d saturates, so check the range first; 2^63 itself is out of range.
        return d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63 && (long) d == l;
    }

    static boolean isIntegral(Object n) {
        return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte
                || n instanceof BigInteger;
    }

    /** {@code null, boolean, long, double, string, list, map}. */
    public static String typeName(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Boolean) {
            return "boolean";
        }
        if (value instanceof Number) {
            return isIntegral(value) ? "long" : "double";
        }
        if (value instanceof String) {
            return "string";
        }
        if (value instanceof List) {
            return "list";
        }
        return value instanceof Map ? "map" : value.getClass().getSimpleName();
    }

    /** Whether {@code a} and {@code b} have the same type, with long and double one type unless typing is strict. */
    public static boolean sameType(Object a, Object b, boolean strictTyping) {
        if (!strictTyping && a instanceof Number && b instanceof Number) {
            return true;
        }
        return typeName(a).equals(typeName(b));
    }

    /**
     * The string by which a keyed-list item is addressed, as in {@code [name=<keyString>]}: strings as they are,
     * numbers in decimal with integral doubles written as longs (so 5 and 5.0 address the same item), booleans as
     * {@code true}/{@code false}. Null for a value that cannot be a key (null, list, map).
     */
    public static String keyString(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof Boolean || (value instanceof Number && isIntegral(value))) {
            return value.toString();
        }
        if (value instanceof Number n) {
            double d = n.doubleValue();
            return longEqualsDouble((long) d, d) ? Long.toString((long) d) : Double.toString(d);
        }
        return null;
    }

    /** The subtree at {@code path}, or null when absent. Bracket segments address keyed items or list positions. */
    public static Object get(Object tree, FieldPath path) {
        return io.statesync.reconciler.internal.TreeNav.get(tree, path.segments());
    }

    /** Compact JSON in the tree's own key order. */
    public static String toJson(Object tree) {
        return JsonWriter.write(tree, false);
    }

    /** Compact JSON with map keys sorted: the same text for trees that differ only in key order. */
    public static String canonicalJson(Object tree) {
        return JsonWriter.write(tree, true);
    }
}
