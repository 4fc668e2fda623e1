package io.statesync.reconciler.fields;

import io.statesync.reconciler.fields.internal.GoText;
import io.statesync.reconciler.fields.internal.ScalarOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One step of a field path, as structured-merge-diff names it: a map field, the key of an item of a map list, the
 * value of an item of a set list, or a position. Elements order as structured-merge-diff orders them (fields, then
 * keys, then values, then indexes), because that order decides how a field set is written.
 */
public sealed interface PathElement extends Comparable<PathElement> {

    /** The rank of the kind in the order of kinds. */
    int rank();

    /** The element as a path prints it: {@code .name}, {@code [name="a"]}, {@code [="x"]}, {@code [3]}. */
    String text();

    @Override
    default int compareTo(PathElement o) {
        if (rank() != o.rank()) {
            return Integer.compare(rank(), o.rank());
        }
        if (this instanceof Field f) {
            return GoText.compareStrings(f.name(), ((Field) o).name());
        }
        if (this instanceof Key k) {
            return k.compareKey((Key) o);
        }
        if (this instanceof Value v) {
            return ScalarOrder.compare(v.value(), ((Value) o).value());
        }
        return Integer.compare(((Index) this).index(), ((Index) o).index());
    }

    /** A field of a map: {@code f:<name>}. */
    record Field(String name) implements PathElement {
        public Field {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public int rank() {
            return 0;
        }

        @Override
        public String text() {
            return "." + name;
        }
    }

    /**
     * The item of a map list whose key fields have these values: {@code k:{...}}. Fields are kept sorted by name;
     * values are scalars (string, long, double, boolean), numbers equal by value.
     */
    record Key(Map<String, Object> fields) implements PathElement {
        public Key {
            if (fields.isEmpty()) {
                throw new IllegalArgumentException("a key needs at least one field");
            }
            TreeMap<String, Object> sorted = new TreeMap<>(GoText::compareStrings);
            fields.forEach((name, value) -> sorted.put(Objects.requireNonNull(name, "key field"), ScalarOrder.check(value)));
            fields = Collections.unmodifiableMap(sorted);
        }

        @Override
        public int rank() {
            return 1;
        }

        @Override
        public String text() {
            List<String> parts = new ArrayList<>(fields.size());
            fields.forEach((name, value) -> parts.add(name + "=" + GoText.print(value)));
            return "[" + String.join(",", parts) + "]";
        }

        int compareKey(Key o) {
            Iterator<Map.Entry<String, Object>> a = fields.entrySet().iterator();
            Iterator<Map.Entry<String, Object>> b = o.fields.entrySet().iterator();
            while (a.hasNext() && b.hasNext()) {
                Map.Entry<String, Object> x = a.next();
                Map.Entry<String, Object> y = b.next();
                int c = GoText.compareStrings(x.getKey(), y.getKey());
                if (c == 0) {
                    c = ScalarOrder.compare(x.getValue(), y.getValue());
                }
                if (c != 0) {
                    return c;
                }
            }
            return a.hasNext() ? 1 : b.hasNext() ? -1 : 0;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && compareKey(k) == 0;
        }

        @Override
        public int hashCode() {
            int h = 0;
            for (Map.Entry<String, Object> e : fields.entrySet()) {
                h = 31 * h + e.getKey().hashCode() * 17 + ScalarOrder.hash(e.getValue());
            }
            return h;
        }
    }

    /** The item of a set list with this scalar value: {@code v:<json>}. */
    record Value(Object value) implements PathElement {
        public Value {
            value = ScalarOrder.check(value);
        }

        @Override
        public int rank() {
            return 2;
        }

        @Override
        public String text() {
            return "[=" + GoText.print(value) + "]";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Value v && ScalarOrder.compare(value, v.value) == 0;
        }

        @Override
        public int hashCode() {
            return ScalarOrder.hash(value);
        }
    }

    /** A position in a list: {@code i:<n>}. */
    record Index(int index) implements PathElement {
        @Override
        public int rank() {
            return 3;
        }

        @Override
        public String text() {
            return "[" + index + "]";
        }
    }
}
