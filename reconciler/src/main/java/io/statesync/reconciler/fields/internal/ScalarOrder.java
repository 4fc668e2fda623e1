package io.statesync.reconciler.fields.internal;

/**
 * The order and equality of the scalars that name list items, as structured-merge-diff compares values: numbers
 * first and by value (so 5 and 5.0 are one item), then strings, then booleans.
 */
public final class ScalarOrder {
    private ScalarOrder() {
    }

    /** The value itself, when it can name an item: a string, long, double or boolean. */
    public static Object check(Object value) {
        if (value instanceof String || value instanceof Long || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                throw new IllegalArgumentException("not a finite number: " + d);
            }
            return value;
        }
        if (value instanceof Integer i) {
            return i.longValue();
        }
        throw new IllegalArgumentException("not a scalar that can name a list item: " + value);
    }

    public static int compare(Object a, Object b) {
        int ra = rank(a);
        int rb = rank(b);
        if (ra != rb) {
            return Integer.compare(ra, rb);
        }
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (ra == 0) {
            double x = ((Number) a).doubleValue();
            double y = ((Number) b).doubleValue();
            return x < y ? -1 : x > y ? 1 : 0;
        }
        if (ra == 1) {
            return GoText.compareStrings((String) a, (String) b);
        }
        return Boolean.compare((Boolean) a, (Boolean) b);
    }

    /** A hash that agrees with {@link #compare}: integral doubles hash as the long they equal. */
    public static int hash(Object value) {
        if (value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 0x1p63) {
            return Long.hashCode(d.longValue());
        }
        return value.hashCode();
    }

    private static int rank(Object value) {
        if (value instanceof Number) {
            return 0;
        }
        return value instanceof String ? 1 : 2;
    }
}
