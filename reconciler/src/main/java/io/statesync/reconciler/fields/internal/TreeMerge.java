package io.statesync.reconciler.fields.internal;

import io.statesync.reconciler.Trees;
import io.statesync.reconciler.fields.ListShapes;
import io.statesync.reconciler.fields.PathElement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An applied configuration merged onto the live object, as structured-merge-diff merges them: maps field by field,
 * set and map lists item by item, anything else (scalars, atomic lists, a value that changes shape) replaced by the
 * configuration's. A null in the configuration leaves a non-empty map or granular list as it is.
 */
public final class TreeMerge {
    private final ListShapes shapes;
    private final List<String> names = new ArrayList<>();

    private TreeMerge(ListShapes shapes) {
        this.shapes = shapes;
    }

    public static Object merge(Object live, Object config, ListShapes shapes) {
        return new TreeMerge(shapes).merge(live, config);
    }

    private Object merge(Object l, Object r) {
        if (r == Node.ABSENT) {
            return l;
        }
        if (l == Node.ABSENT) {
            return r;
        }
        Node nl = Node.of(l, shapes, names);
        Node nr = Node.of(r, shapes, names);
        nl = nl == null && l == null && nr != null ? Node.emptyLike(nr) : nl;
        nr = nr == null && r == null && nl != null ? Node.emptyLike(nl) : nr;
        if (nl == null || nr == null || !nl.sameKind(nr) || (nl.isEmpty() && nr.isEmpty())) {
            return r;
        }
        return nl.map ? mergeMaps(nl, nr) : mergeLists(nl, nr);
    }

    private Object child(Node nl, Node nr, PathElement e) {
        Node.push(names, e);
        Object out = merge(nl.children.getOrDefault(e, Node.ABSENT), nr.children.getOrDefault(e, Node.ABSENT));
        Node.pop(names, e);
        return out;
    }

    private Map<String, Object> mergeMaps(Node nl, Node nr) {
        Trees.MapBuilder out = Trees.mapBuilder(nl.children.size() + nr.children.size());
        for (PathElement e : nl.children.keySet()) {
            out.put(((PathElement.Field) e).name(), child(nl, nr, e));
        }
        for (PathElement e : nr.children.keySet()) {
            if (!nl.children.containsKey(e)) {
                out.put(((PathElement.Field) e).name(), child(nl, nr, e));
            }
        }
        return out.build();
    }

    /**
     * Items in structured-merge-diff's order: the live order, with the configuration's items placed where the
     * configuration puts them relative to the items both have, and live items the configuration reorders moved
     * to the configuration's place.
     */
    private List<Object> mergeLists(Node nl, Node nr) {
        List<PathElement> lhs = new ArrayList<>(nl.children.keySet());
        List<PathElement> rhs = new ArrayList<>(nr.children.keySet());
        Deque<PathElement> shared = new ArrayDeque<>();
        for (PathElement e : rhs) {
            if (nl.children.containsKey(e)) {
                shared.add(e);
            }
        }
        Trees.ListBuilder out = Trees.listBuilder(lhs.size() + rhs.size());
        Set<PathElement> mergedRhs = new HashSet<>();
        PathElement nextShared = shared.poll();
        int li = 0;
        int ri = 0;
        while (li < lhs.size() || ri < rhs.size()) {
            if (li < lhs.size() && ri < rhs.size()) {
                PathElement pe = lhs.get(li);
                if (pe.equals(rhs.get(ri))) {
                    mergedRhs.add(pe);
                    out.add(child(nl, nr, pe));
                    li++;
                    ri++;
                    nextShared = shared.poll();
                    continue;
                }
                if (nr.children.containsKey(pe) && nextShared != null && !nextShared.equals(pe)) {
                    li++;
                    continue;
                }
            }
            if (li < lhs.size()) {
                PathElement pe = lhs.get(li);
                if (!nr.children.containsKey(pe)) {
                    out.add(nl.children.get(pe));
                    li++;
                    continue;
                } else if (mergedRhs.contains(pe)) {
                    li++;
                }
            }
            if (ri < rhs.size()) {
                PathElement pe = rhs.get(ri);
                mergedRhs.add(pe);
                out.add(child(nl, nr, pe));
                ri++;
                if (pe.equals(nextShared)) {
                    nextShared = shared.poll();
                }
            }
        }
        return out.build();
    }
}
