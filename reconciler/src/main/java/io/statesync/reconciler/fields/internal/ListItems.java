package io.statesync.reconciler.fields.internal;

import io.statesync.reconciler.fields.FieldSet;
import io.statesync.reconciler.fields.ListShape;
import io.statesync.reconciler.fields.ListShapes;
import io.statesync.reconciler.fields.ListType;
import io.statesync.reconciler.fields.PathElement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The elements that name a list's items, by its shape. A set or map list whose items cannot all be named, or whose
 * names repeat, is handled whole, like an atomic list, in the object that holds it; an applied configuration with
 * such a list is refused instead ({@link #check}), as the apiserver refuses it.
 */
public final class ListItems {
    private ListItems() {
    }

    /** The items' elements in list order, or null when the list is handled whole. */
    public static List<PathElement> elements(List<?> list, ListShape shape) {
        if (shape.type() == ListType.ATOMIC) {
            return null;
        }
        List<PathElement> out = new ArrayList<>(list.size());
        Set<PathElement> seen = new HashSet<>();
        for (Object item : list) {
            PathElement e = elementOf(item, shape);
            if (e == null || !seen.add(e)) {
                return null;
            }
            out.add(e);
        }
        return out;
    }

    /** The element that names {@code item}, or null when it cannot be named. */
    public static PathElement elementOf(Object item, ListShape shape) {
        if (shape.type() == ListType.SET) {
            return isScalar(item) ? new PathElement.Value(item) : null;
        }
        if (!(item instanceof Map<?, ?> map)) {
            return null;
        }
        Map<String, Object> key = new LinkedHashMap<>();
        for (String field : shape.keys()) {
            Object value = map.get(field);
            if (value != null) {
                if (!isScalar(value)) {
                    return null;
                }
                key.put(field, value);
            }
        }
        return key.isEmpty() ? null : new PathElement.Key(key);
    }

    private static boolean isScalar(Object v) {
        return v instanceof String || v instanceof Long || v instanceof Boolean
                || (v instanceof Double d && !d.isNaN() && !d.isInfinite());
    }

    /** Refuses a configuration with a set or map list whose items cannot all be named, or are named twice. */
    public static void check(Object tree, ListShapes shapes, List<String> names, List<PathElement> path) {
        if (tree instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String name = e.getKey().toString();
                names.add(name);
                path.add(new PathElement.Field(name));
                check(e.getValue(), shapes, names, path);
                path.remove(path.size() - 1);
                names.remove(names.size() - 1);
            }
        } else if (tree instanceof List<?> list) {
            ListShape shape = shapes.at(names);
            if (shape.type() != ListType.ATOMIC) {
                checkItems(list, shape, shapes, names, path);
            }
        }
    }

    private static void checkItems(List<?> list, ListShape shape, ListShapes shapes, List<String> names,
            List<PathElement> path) {
        Set<PathElement> seen = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            PathElement e = elementOf(list.get(i), shape);
            if (e == null) {
                throw new IllegalArgumentException(FieldSet.pathString(path) + ": element " + i + ": "
                        + (shape.type() == ListType.SET ? "a set item must be a string, number or boolean"
                                : "a map list item must be an object with a scalar value for one of its key fields "
                                        + shape.keys()));
            }
            if (!seen.add(e)) {
                throw new IllegalArgumentException(FieldSet.pathString(path) + ": duplicate entries for key "
                        + e.text());
            }
            path.add(e);
            check(list.get(i), shapes, names, path);
            path.remove(path.size() - 1);
        }
    }
}
