package io.statesync.reconciler;

import java.util.List;

/**
 * The outcome of a three-way merge: the tree the observed state should become, the patch that gets it there
 * ({@code Patches.apply(observed, patch)} equals {@code target}), and the conflicts resolved in favour of desired.
 */
public record MergeResult(Object target, List<PatchOp> patch, List<FieldConflict> conflicts) {
    public MergeResult {
        patch = List.copyOf(patch);
        conflicts = List.copyOf(conflicts);
    }

    public boolean inSync() {
        return patch.isEmpty();
    }
}
