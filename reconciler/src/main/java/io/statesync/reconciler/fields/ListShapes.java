package io.statesync.reconciler.fields;

import java.util.List;

/**
 * The type of each list of an object, by the path of field names from the root to the list; the items of a list add
 * nothing to the path, so every container's {@code ports} in {@code spec.containers} is at
 * {@code [spec, containers, ports]}. Lists not described are atomic, as Kubernetes treats lists without a list type.
 */
@FunctionalInterface
public interface ListShapes {
    ListShapes ALL_ATOMIC = fieldNames -> ListShape.ATOMIC;

    /** The list's shape; never null ({@link ListShape#ATOMIC} when nothing is known). */
    ListShape at(List<String> fieldNames);
}
