package io.statesync.reconciler.fields.internal;

import io.statesync.reconciler.Trees;
import io.statesync.reconciler.fields.FieldSet;
import io.statesync.reconciler.fields.FieldSetBuilder;
import io.statesync.reconciler.fields.ListShapes;
import io.statesync.reconciler.fields.PathElement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * What changed from one tree to another, as structured-merge-diff's Compare reports it: the paths removed, modified
 * (a leaf whose value changed) and added. A container that appears or disappears is listed itself and with
 * everything under it; a container present on both sides is not listed, only its changed children.
 */
public final class TreeComparison {
    private final ListShapes shapes;
    private final FieldSetBuilder removed = new FieldSetBuilder();
    private final FieldSetBuilder modified = new FieldSetBuilder();
    private final FieldSetBuilder added = new FieldSetBuilder();
    private final List<PathElement> path = new ArrayList<>();
    private final List<String> names = new ArrayList<>();

    /** The three sets of one comparison. */
    public record Changes(FieldSet removed, FieldSet modified, FieldSet added) {
        public FieldSet modifiedOrAdded() {
            return modified.union(added);
        }
    }

    private TreeComparison(ListShapes shapes) {
        this.shapes = shapes;
    }

    public static Changes compare(Object before, Object after, ListShapes shapes) {
        TreeComparison c = new TreeComparison(shapes);
        c.compare(before, after);
        return new Changes(c.removed.build(), c.modified.build(), c.added.build());
    }

    private void compare(Object l, Object r) {
        if (l == Node.ABSENT) {
            everything(r, added);
            added.insert(path);
            return;
        }
        if (r == Node.ABSENT) {
            everything(l, removed);
            removed.insert(path);
            return;
        }
        Node nl = Node.of(l, shapes, names);
        Node nr = Node.of(r, shapes, names);
        nl = nl == null && l == null && nr != null ? Node.emptyLike(nr) : nl;
        nr = nr == null && r == null && nl != null ? Node.emptyLike(nl) : nr;
        if (nl != null && nr != null && nl.sameKind(nr) && !(nl.isEmpty() && nr.isEmpty())) {
            zip(nl, nr);
        } else if (nl == null && nr == null || nl != null && nr != null && nl.sameKind(nr)) {
            if (!Trees.deepEquals(l, r, false)) {
                modified.insert(path);
            }
        } else {
            reshaped(nl, nr);
        }
    }

    /** A value whose shape changed: the old children go, the new arrive, and a leaf side makes it a modification. */
    private void reshaped(Node nl, Node nr) {
        if (nl != null) {
            zip(nl, Node.emptyLike(nl));
        }
        if (nr != null) {
            zip(Node.emptyLike(nr), nr);
        }
        if (nl == null || nl.isEmpty() || nr == null || nr.isEmpty()) {
            modified.insert(path);
        }
    }

    private void zip(Node nl, Node nr) {
        LinkedHashSet<PathElement> all = new LinkedHashSet<>(nl.children.keySet());
        all.addAll(nr.children.keySet());
        for (PathElement e : all) {
            path.add(e);
            Node.push(names, e);
            compare(nl.children.getOrDefault(e, Node.ABSENT), nr.children.getOrDefault(e, Node.ABSENT));
            Node.pop(names, e);
            path.remove(path.size() - 1);
        }
    }

    /** Every path below {@code value}, containers included, into {@code into}. */
    private void everything(Object value, FieldSetBuilder into) {
        Node n = Node.of(value, shapes, names);
        if (n == null) {
            return;
        }
        for (Map.Entry<PathElement, Object> e : n.children.entrySet()) {
            path.add(e.getKey());
            Node.push(names, e.getKey());
            everything(e.getValue(), into);
            into.insert(path);
            Node.pop(names, e.getKey());
            path.remove(path.size() - 1);
        }
    }
}
