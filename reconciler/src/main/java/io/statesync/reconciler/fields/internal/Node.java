package io.statesync.reconciler.fields.internal;

import io.statesync.reconciler.fields.ListShapes;
import io.statesync.reconciler.fields.PathElement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tree value seen as a granular container: a map (children named by field) or a set or map list (children named
 * by item), in order. Scalars, nulls and lists handled whole are leaves and have no node.
 */
final class Node {
    /** Stands for a side that has no value at a path, which differs from a null value. */
    static final Object ABSENT = new Object();

    final boolean map;
    final LinkedHashMap<PathElement, Object> children;

    private Node(boolean map, LinkedHashMap<PathElement, Object> children) {
        this.map = map;
        this.children = children;
    }

    /** The node of {@code value} at the list-shape path {@code names}, or null for a leaf. */
    static Node of(Object value, ListShapes shapes, List<String> names) {
        if (value instanceof Map<?, ?> m) {
            LinkedHashMap<PathElement, Object> children = new LinkedHashMap<>();
            m.forEach((k, v) -> children.put(new PathElement.Field(k.toString()), v));
            return new Node(true, children);
        }
        if (value instanceof List<?> list) {
            List<PathElement> items = ListItems.elements(list, shapes.at(names));
            if (items == null) {
                return null;
            }
            LinkedHashMap<PathElement, Object> children = new LinkedHashMap<>();
            for (int i = 0; i < items.size(); i++) {
                children.put(items.get(i), list.get(i));
            }
            return new Node(false, children);
        }
        return null;
    }

    /** An empty node of {@code other}'s kind: what a null stands for next to a container, as the merge reads it. */
    static Node emptyLike(Node other) {
        return new Node(other.map, new LinkedHashMap<>());
    }

    boolean isEmpty() {
        return children.isEmpty();
    }

    boolean sameKind(Node o) {
        return map == o.map;
    }

    /** Descending into {@code e} extends the list-shape path by its name when it is a field. */
    static void push(List<String> names, PathElement e) {
        if (e instanceof PathElement.Field f) {
            names.add(f.name());
        }
    }

    static void pop(List<String> names, PathElement e) {
        if (e instanceof PathElement.Field) {
            names.remove(names.size() - 1);
        }
    }
}
