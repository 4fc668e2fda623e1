package io.statesync.reconciler;

import io.statesync.reconciler.internal.DiagnosisRules;
import java.time.Instant;

/** Explains a status: a pure function of what the caller already has. */
public final class Diagnoser {
    private Diagnoser() {
    }

    /**
     * @param generation     the desired generation
     * @param status         the current status
     * @param lastCorrection the last correction issued, or null
     * @param now            the clock
     * @param policy         the kind's policy
     */
    public static Diagnosis diagnose(long generation, StatusView status, LastCorrection lastCorrection, Instant now,
                                     ReconcilePolicy policy) {
        return DiagnosisRules.diagnose(generation, status, lastCorrection, now, policy);
    }
}
