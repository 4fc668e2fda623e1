package io.statesync.reconciler.fields;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** A mutable set of paths that builds a {@link FieldSet}; for the walks that collect one path at a time. */
public final class FieldSetBuilder {
    private final TreeSet<PathElement> members = new TreeSet<>();
    private final TreeMap<PathElement, FieldSetBuilder> children = new TreeMap<>();

    public FieldSetBuilder insert(List<PathElement> path) {
        FieldSetBuilder level = this;
        for (int i = 0; i < path.size() - 1; i++) {
            level = level.children.computeIfAbsent(path.get(i), e -> new FieldSetBuilder());
        }
        if (!path.isEmpty()) {
            level.members.add(path.get(path.size() - 1));
        }
        return this;
    }

    /** Merges {@code set}'s paths in below {@code prefix}. */
    public FieldSetBuilder insertAll(List<PathElement> prefix, FieldSet set) {
        List<PathElement> path = new ArrayList<>(prefix);
        for (List<PathElement> p : set.paths()) {
            path.addAll(p);
            insert(path);
            path.subList(prefix.size(), path.size()).clear();
        }
        return this;
    }

    public FieldSet build() {
        List<PathElement> ce = new ArrayList<>(children.size());
        List<FieldSet> cs = new ArrayList<>(children.size());
        for (Map.Entry<PathElement, FieldSetBuilder> e : children.entrySet()) {
            FieldSet child = e.getValue().build();
            if (!child.isEmpty()) {
                ce.add(e.getKey());
                cs.add(child);
            }
        }
        return FieldSet.ofSorted(new ArrayList<>(members), ce, cs);
    }
}
