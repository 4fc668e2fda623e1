package io.statesync.reconciler.internal;

import io.statesync.reconciler.Diagnosis;
import io.statesync.reconciler.LastCorrection;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.StatusView;
import java.time.Instant;

public final class DiagnosisRules {
    private DiagnosisRules() {
    }

    public static Diagnosis diagnose(long generation, StatusView status, LastCorrection lastCorrection, Instant now,
                                     ReconcilePolicy policy) {
        throw new UnsupportedOperationException("not yet");
    }
}
