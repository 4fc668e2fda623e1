package io.statesync.reconciler;

import io.statesync.reconciler.internal.MergeEngine;

/**
 * Three-way merge of desired, observed and last-applied (the spec statesync last sent, i.e. the fields it owns).
 * <ul>
 *   <li>A field in desired is set to desired's value. If someone changed it since the last apply and desired changed
 *       it too, to a different value, desired wins and a {@link FieldConflict} is reported.</li>
 *   <li>A field absent from desired that last-applied has (statesync set it, desired has now dropped it) is pruned.</li>
 *   <li>A field absent from both desired and last-applied belongs to someone else and is left alone, unless the
 *       policy is strict.</li>
 *   <li>Ignored paths are left exactly as observed.</li>
 * </ul>
 * A null {@code lastApplied} means statesync owns nothing yet. A null {@code observed} reads as an empty map when
 * desired is a map, so the patch creates each top-level field.
 */
public final class ThreeWayMerge {
    private ThreeWayMerge() {
    }

    public static MergeResult merge(Object desired, Object observed, Object lastApplied, ReconcilePolicy policy) {
        return MergeEngine.merge(Trees.normalize(desired), Trees.normalize(observed), Trees.normalize(lastApplied),
                policy);
    }
}
