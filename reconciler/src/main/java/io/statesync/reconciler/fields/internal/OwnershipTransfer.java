package io.statesync.reconciler.fields.internal;

import io.statesync.reconciler.fields.ApplyConflictException;
import io.statesync.reconciler.fields.Conflict;
import io.statesync.reconciler.fields.FieldSet;
import io.statesync.reconciler.fields.ListShapes;
import io.statesync.reconciler.fields.ManagedFieldsEntry;
import io.statesync.reconciler.fields.PathElement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a write does to the other managers, as structured-merge-diff's update step: each loses the fields the write
 * modified or added (a conflict, unless forced) and the fields it removed; a manager left with nothing is dropped.
 */
public final class OwnershipTransfer {
    private OwnershipTransfer() {
    }

    /**
     * @param current the identifier of the writing manager, which neither conflicts with itself nor loses anything here
     * @return the comparison of {@code before} and {@code after}
     * @throws ApplyConflictException when not forced and another manager owns a modified or added field
     */
    public static TreeComparison.Changes transfer(Object before, Object after, ManagerSets managers, String current,
            boolean force, ListShapes shapes) {
        TreeComparison.Changes changes = TreeComparison.compare(before, after, shapes);
        FieldSet changed = changes.modifiedOrAdded();
        Map<String, FieldSet> conflicts = new LinkedHashMap<>();
        for (Map.Entry<String, ManagedFieldsEntry> e : managers.entries().entrySet()) {
            FieldSet taken = e.getKey().equals(current) ? FieldSet.empty() : e.getValue().fields().intersection(changed);
            if (!taken.isEmpty()) {
                conflicts.put(e.getKey(), taken);
            }
        }
        if (!force && !conflicts.isEmpty()) {
            throw new ApplyConflictException(describe(conflicts, managers));
        }
        conflicts.forEach((id, taken) -> managers.setFields(id, managers.get(id).fields().difference(taken)));
        if (!changes.removed().isEmpty()) {
            for (String id : new ArrayList<>(managers.entries().keySet())) {
                if (!id.equals(current)) {
                    managers.setFields(id, managers.get(id).fields().difference(changes.removed()));
                }
            }
        }
        managers.dropEmpty();
        return changes;
    }

    private static List<Conflict> describe(Map<String, FieldSet> conflicts, ManagerSets managers) {
        List<Conflict> out = new ArrayList<>();
        conflicts.forEach((id, set) -> {
            ManagedFieldsEntry owner = managers.get(id);
            for (List<PathElement> path : set.paths()) {
                out.add(new Conflict(owner.manager(), owner.operation(), owner.apiVersion(), null, path));
            }
        });
        return out;
    }
}
