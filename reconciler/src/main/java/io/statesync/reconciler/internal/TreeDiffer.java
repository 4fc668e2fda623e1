package io.statesync.reconciler.internal;

import io.statesync.reconciler.FieldDiff;
import io.statesync.reconciler.ReconcilePolicy;
import java.util.List;

public final class TreeDiffer {
    private TreeDiffer() {
    }

    public static List<FieldDiff> diff(Object desired, Object observed, ReconcilePolicy policy) {
        throw new UnsupportedOperationException("not yet");
    }
}
