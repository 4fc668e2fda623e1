package io.statesync.reconciler.internal;

import io.statesync.reconciler.PatchOp;
import java.util.List;

public final class PatchApplier {
    private PatchApplier() {
    }

    public static Object apply(Object observed, List<PatchOp> patch) {
        throw new UnsupportedOperationException("not yet");
    }
}
