package io.statesync.reconciler;

import io.statesync.reconciler.internal.PatchApplier;
import java.util.List;

/**
 * Applies a patch to a tree and returns a new immutable tree; the input is never changed.
 * <ul>
 *   <li>SET creates missing parents (a map, or a list before a bracket segment) and replaces a scalar that stands
 *       where a container is needed. On a keyed-list item it replaces the item, or appends it when absent.</li>
 *   <li>REMOVE of an absent path does nothing. REMOVE of the root yields null.</li>
 * </ul>
 */
public final class Patches {
    private Patches() {
    }

    public static Object apply(Object observed, List<PatchOp> patch) {
        return PatchApplier.apply(observed, patch);
    }
}
