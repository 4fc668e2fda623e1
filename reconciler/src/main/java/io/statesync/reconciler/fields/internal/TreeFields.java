package io.statesync.reconciler.fields.internal;

import io.statesync.reconciler.fields.FieldSet;
import io.statesync.reconciler.fields.FieldSetBuilder;
import io.statesync.reconciler.fields.ListShapes;
import io.statesync.reconciler.fields.PathElement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fields a tree sets, as structured-merge-diff's ToFieldSet counts them with every map key a named field: a
 * scalar, a null, an empty map and an atomic list are members; a non-empty map is not itself a member, only its
 * fields are; each item of a set or map list is a member and so are its fields; an empty set or map list sets nothing.
 */
public final class TreeFields {
    private final ListShapes shapes;
    private final FieldSetBuilder out = new FieldSetBuilder();
    private final List<PathElement> path = new ArrayList<>();
    private final List<String> names = new ArrayList<>();

    private TreeFields(ListShapes shapes) {
        this.shapes = shapes;
    }

    public static FieldSet of(Object tree, ListShapes shapes) {
        TreeFields walk = new TreeFields(shapes);
        walk.visit(tree);
        return walk.out.build();
    }

    private void visit(Object value) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String name = e.getKey().toString();
                path.add(new PathElement.Field(name));
                names.add(name);
                Object child = e.getValue();
                visit(child);
                if (child == null || (child instanceof Map<?, ?> m && m.isEmpty())) {
                    out.insert(path);
                }
                names.remove(names.size() - 1);
                path.remove(path.size() - 1);
            }
        } else if (value instanceof List<?> list) {
            List<PathElement> items = ListItems.elements(list, shapes.at(names));
            if (items == null) {
                out.insert(path);
                return;
            }
            for (int i = 0; i < items.size(); i++) {
                path.add(items.get(i));
                visit(list.get(i));
                out.insert(path);
                path.remove(path.size() - 1);
            }
        } else {
            out.insert(path);
        }
    }

    /**
     * The set with every field that has children made a member too (structured-merge-diff's
     * EnsureNamedFieldsAreMembers), so that removing by it removes a whole map, not only its leaves.
     */
    public static FieldSet withFieldsAsMembers(FieldSet set) {
        FieldSetBuilder b = new FieldSetBuilder();
        for (List<PathElement> p : set.paths()) {
            b.insert(p);
            for (int i = 1; i < p.size(); i++) {
                if (p.get(i - 1) instanceof PathElement.Field) {
                    b.insert(p.subList(0, i));
                }
            }
        }
        return b.build();
    }
}
