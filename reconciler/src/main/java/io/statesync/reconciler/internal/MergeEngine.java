package io.statesync.reconciler.internal;

import io.statesync.reconciler.MergeResult;
import io.statesync.reconciler.ReconcilePolicy;

public final class MergeEngine {
    private MergeEngine() {
    }

    public static MergeResult merge(Object desired, Object observed, Object lastApplied, ReconcilePolicy policy) {
        throw new UnsupportedOperationException("not yet");
    }
}
