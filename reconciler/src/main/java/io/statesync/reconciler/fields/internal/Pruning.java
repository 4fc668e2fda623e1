package io.statesync.reconciler.fields.internal;

import io.statesync.reconciler.fields.FieldSet;
import io.statesync.reconciler.fields.ListShapes;

/**
 * The removal of what an applier applied before and leaves out now, as structured-merge-diff's prune: such a field,
 * list item or map entry goes unless another manager (or the applier's new configuration) owns it; what the removal
 * takes along without the applier having owned it is put back.
 */
public final class Pruning {
    private Pruning() {
    }

    /**
     * @param merged the live object with the new configuration merged in
     * @param managers every manager, the applier with its new field set already
     * @param lastApplied the applier's field set before this apply
     */
    public static Object prune(Object merged, ManagerSets managers, FieldSet lastApplied, ListShapes shapes) {
        if (lastApplied == null || lastApplied.isEmpty()) {
            return merged;
        }
        FieldSet last = TreeFields.withFieldsAsMembers(lastApplied);
        Object pruned = TreeRemoval.remove(merged, last, shapes);
        FieldSet mergedSet = TreeFields.withFieldsAsMembers(TreeFields.of(merged, shapes));
        FieldSet owned = TreeFields.withFieldsAsMembers(managers.union());
        FieldSet kept = TreeFields.withFieldsAsMembers(TreeFields.of(pruned, shapes)).union(owned);
        pruned = TreeRemoval.remove(merged, mergedSet.difference(kept), shapes);
        FieldSet prunedSet = TreeFields.withFieldsAsMembers(TreeFields.of(pruned, shapes));
        return TreeRemoval.remove(merged, mergedSet.difference(prunedSet).intersection(last), shapes);
    }
}
