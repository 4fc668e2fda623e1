package io.statesync.reconciler.fields.internal;

import io.statesync.reconciler.Trees;
import io.statesync.reconciler.fields.FieldSet;
import io.statesync.reconciler.fields.ListShapes;
import io.statesync.reconciler.fields.PathElement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A tree without the fields and items of a set, as structured-merge-diff's RemoveItems: a member is removed with
 * everything under it, a child set is removed from inside the value. A map or list emptied this way stays as an
 * empty one (where structured-merge-diff leaves a null), so that an owner of the container keeps a container.
 */
public final class TreeRemoval {
    private final ListShapes shapes;
    private final List<String> names = new ArrayList<>();

    private TreeRemoval(ListShapes shapes) {
        this.shapes = shapes;
    }

    public static Object remove(Object tree, FieldSet toRemove, ListShapes shapes) {
        return toRemove.isEmpty() ? tree : new TreeRemoval(shapes).remove(tree, toRemove);
    }

    private Object remove(Object value, FieldSet toRemove) {
        Node n = Node.of(value, shapes, names);
        if (n == null || n.isEmpty()) {
            return value;
        }
        return n.map ? removeFromMap(n, toRemove) : removeFromList(n, toRemove);
    }

    private Object removeFromMap(Node n, FieldSet toRemove) {
        Trees.MapBuilder out = Trees.mapBuilder(n.children.size());
        for (Map.Entry<PathElement, Object> e : n.children.entrySet()) {
            if (!toRemove.hasMember(e.getKey())) {
                out.put(((PathElement.Field) e.getKey()).name(), inside(e.getKey(), e.getValue(), toRemove));
            }
        }
        return out.build();
    }

    private Object removeFromList(Node n, FieldSet toRemove) {
        Trees.ListBuilder out = Trees.listBuilder(n.children.size());
        for (Map.Entry<PathElement, Object> e : n.children.entrySet()) {
            if (!toRemove.hasMember(e.getKey())) {
                out.add(inside(e.getKey(), e.getValue(), toRemove));
            }
        }
        return out.build();
    }

    private Object inside(PathElement e, Object value, FieldSet toRemove) {
        FieldSet below = toRemove.child(e);
        if (below.isEmpty()) {
            return value;
        }
        Node.push(names, e);
        Object out = remove(value, below);
        Node.pop(names, e);
        return out;
    }
}
