package io.statesync.reconciler.fields;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.BinaryOperator;

/**
 * An immutable set of field paths, shaped as structured-merge-diff's set: at each level the sorted elements that are
 * members (paths that end here) and the sorted elements that have children. An element can be both: a map list item
 * is owned itself and through its fields. Set operations work level by level; {@link #difference} takes away members
 * only, not the children under a removed member, as structured-merge-diff's does.
 */
public final class FieldSet {
    private static final PathElement[] NO_ELEMENTS = new PathElement[0];
    private static final FieldSet[] NO_SETS = new FieldSet[0];
    private static final FieldSet EMPTY = new FieldSet(NO_ELEMENTS, NO_ELEMENTS, NO_SETS);

    private final PathElement[] members;
    private final PathElement[] childElements;
    private final FieldSet[] children;
    private int hash;

    private FieldSet(PathElement[] members, PathElement[] childElements, FieldSet[] children) {
        this.members = members;
        this.childElements = childElements;
        this.children = children;
    }

    public static FieldSet empty() {
        return EMPTY;
    }

    /** The set of these paths; an empty path adds nothing. */
    public static FieldSet of(List<List<PathElement>> paths) {
        FieldSetBuilder builder = new FieldSetBuilder();
        for (List<PathElement> path : paths) {
            builder.insert(path);
        }
        return builder.build();
    }

    /** Built from sorted, distinct elements and non-empty child sets; for {@link FieldSetBuilder}. */
    static FieldSet ofSorted(List<PathElement> members, List<PathElement> childElements, List<FieldSet> children) {
        if (members.isEmpty() && childElements.isEmpty()) {
            return EMPTY;
        }
        return new FieldSet(members.toArray(NO_ELEMENTS), childElements.toArray(NO_ELEMENTS),
                children.toArray(NO_SETS));
    }

    public boolean isEmpty() {
        return members.length == 0 && childElements.length == 0;
    }

    /** Whether the path is a member (it ends at a member element). */
    public boolean contains(List<PathElement> path) {
        FieldSet set = this;
        for (int i = 0; i < path.size() - 1; i++) {
            set = set.child(path.get(i));
        }
        return !path.isEmpty() && set.hasMember(path.get(path.size() - 1));
    }

    public boolean hasMember(PathElement element) {
        return Arrays.binarySearch(members, element) >= 0;
    }

    /** The set below {@code element} (structured-merge-diff's WithPrefix); empty when there is none. */
    public FieldSet child(PathElement element) {
        int i = Arrays.binarySearch(childElements, element);
        return i >= 0 ? children[i] : EMPTY;
    }

    /** The members of this level, sorted. */
    public List<PathElement> members() {
        return Collections.unmodifiableList(Arrays.asList(members));
    }

    /** The elements of this level that have children, sorted. */
    public List<PathElement> childElements() {
        return Collections.unmodifiableList(Arrays.asList(childElements));
    }

    /**
     * Every member path, in structured-merge-diff's order of iteration: a level's members, then each child's paths
     * in the order of the children. Conflicts are listed in this order.
     */
    public List<List<PathElement>> paths() {
        List<List<PathElement>> out = new ArrayList<>();
        collect(new ArrayList<>(), out);
        return Collections.unmodifiableList(out);
    }

    private void collect(List<PathElement> prefix, List<List<PathElement>> out) {
        for (PathElement m : members) {
            List<PathElement> path = new ArrayList<>(prefix.size() + 1);
            path.addAll(prefix);
            path.add(m);
            out.add(Collections.unmodifiableList(path));
        }
        for (int i = 0; i < childElements.length; i++) {
            prefix.add(childElements[i]);
            children[i].collect(prefix, out);
            prefix.remove(prefix.size() - 1);
        }
    }

    public FieldSet union(FieldSet o) {
        if (o.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return o;
        }
        return combine(o, true, true, FieldSet::union);
    }

    public FieldSet intersection(FieldSet o) {
        return combine(o, false, false, FieldSet::intersection);
    }

    /** The members of this set not in {@code o}, level by level; a member of {@code o} does not remove children. */
    public FieldSet difference(FieldSet o) {
        if (o.isEmpty() || isEmpty()) {
            return this;
        }
        return combine(o, true, false, FieldSet::difference);
    }

    /**
     * Merges this level with {@code o}'s: elements only here are kept when {@code keepMine}, elements only there when
     * {@code keepTheirs}, shared members are kept unless this is a difference, shared children are combined by
     * {@code op}, and empty results are dropped.
     */
    private FieldSet combine(FieldSet o, boolean keepMine, boolean keepTheirs, BinaryOperator<FieldSet> op) {
        boolean keepShared = keepTheirs || !keepMine;
        List<PathElement> m = mergeMembers(members, o.members, keepMine, keepTheirs, keepShared);
        List<PathElement> ce = new ArrayList<>();
        List<FieldSet> cs = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < childElements.length || j < o.childElements.length) {
            int c = i == childElements.length ? 1 : j == o.childElements.length ? -1
                    : childElements[i].compareTo(o.childElements[j]);
            if (c < 0) {
                add(ce, cs, childElements[i], keepMine ? children[i] : EMPTY);
                i++;
            } else if (c > 0) {
                add(ce, cs, o.childElements[j], keepTheirs ? o.children[j] : EMPTY);
                j++;
            } else {
                add(ce, cs, childElements[i], op.apply(children[i], o.children[j]));
                i++;
                j++;
            }
        }
        return ofSorted(m, ce, cs);
    }

    private static void add(List<PathElement> elements, List<FieldSet> sets, PathElement e, FieldSet s) {
        if (!s.isEmpty()) {
            elements.add(e);
            sets.add(s);
        }
    }

    private static List<PathElement> mergeMembers(PathElement[] a, PathElement[] b, boolean keepA, boolean keepB,
            boolean keepShared) {
        List<PathElement> out = new ArrayList<>(a.length + b.length);
        int i = 0;
        int j = 0;
        while (i < a.length || j < b.length) {
            int c = i == a.length ? 1 : j == b.length ? -1 : a[i].compareTo(b[j]);
            if (c < 0) {
                if (keepA) {
                    out.add(a[i]);
                }
                i++;
            } else if (c > 0) {
                if (keepB) {
                    out.add(b[j]);
                }
                j++;
            } else {
                if (keepShared) {
                    out.add(a[i]);
                }
                i++;
                j++;
            }
        }
        return out;
    }

    /** structured-merge-diff's Path.String(): {@code .spec.containers[name="a"].image}, {@code [3]}. */
    public static String pathString(List<PathElement> path) {
        StringBuilder out = new StringBuilder();
        for (PathElement e : path) {
            out.append(e.text());
        }
        return out.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o == this || (o instanceof FieldSet s && Arrays.equals(members, s.members)
                && Arrays.equals(childElements, s.childElements) && Arrays.equals(children, s.children));
    }

    @Override
    public int hashCode() {
        if (hash == 0) {
            hash = 31 * (31 * Arrays.hashCode(members) + Arrays.hashCode(childElements)) + Arrays.hashCode(children);
        }
        return hash;
    }

    @Override
    public String toString() {
        List<String> out = new ArrayList<>();
        for (List<PathElement> p : paths()) {
            out.add(pathString(p));
        }
        return String.join("\n", out);
    }
}
