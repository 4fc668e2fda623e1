package io.statesync.reconciler;

import java.time.Instant;
import java.util.Objects;

/**
 * The correction last issued for a key, as the caller stored it. The caller drops it (or stops passing it) once a
 * plan returns {@link Decision.InSync}: a converged correction is over, and a later identical drift is a new one.
 */
public record LastCorrection(String commandId, Action action, Reason reason, long generation, int attempt,
                             String patchFingerprint, Instant issuedAt, Instant deadline) {
    public LastCorrection {
        Objects.requireNonNull(commandId, "commandId");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(patchFingerprint, "patchFingerprint");
        Objects.requireNonNull(issuedAt, "issuedAt");
        Objects.requireNonNull(deadline, "deadline");
    }

    /** What the caller stores after emitting {@code c} under {@code commandId} for {@code generation}. */
    public static LastCorrection of(String commandId, long generation, PlannedCorrection c) {
        return new LastCorrection(commandId, c.action(), c.reason(), generation, c.attempt(), c.fingerprint(),
                c.issuedAt(), c.deadline());
    }
}
