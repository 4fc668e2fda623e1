package io.statesync.reconciler;

import io.statesync.reconciler.internal.TreeDiffer;
import java.util.List;

/**
 * Field-level diff of a desired spec against an observed state. Maps are compared key by key; lists are atomic
 * unless the policy names a merge key for them; ignored paths are skipped; numbers compare by value unless the
 * policy asks for strict typing. At the root, null means absent. The order is deterministic: desired's key order,
 * then keys only observed has, in observed's order. The trees are read, not copied: the values in a {@link FieldDiff}
 * are subtrees of the arguments, so pass normalised ({@link Trees#normalize}) trees.
 */
public final class Differ {
    private Differ() {
    }

    public static List<FieldDiff> diff(Object desired, Object observed, ReconcilePolicy policy) {
        return TreeDiffer.diff(desired, observed, policy);
    }
}
