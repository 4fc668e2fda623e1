package io.statesync.reconciler;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A correction to emit. The caller adds the command id, key, uid, generation and full desired spec.
 * {@code fingerprint} identifies the correction for in-flight suppression: it covers action, generation and patch,
 * not attempt or reason, so a retry keeps the fingerprint of the correction it repeats.
 */
public record PlannedCorrection(Action action, Reason reason, List<PatchOp> patch, int attempt, Instant issuedAt,
                                Instant deadline, String fingerprint) {
    public PlannedCorrection {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(reason, "reason");
        patch = List.copyOf(patch);
        Objects.requireNonNull(issuedAt, "issuedAt");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(fingerprint, "fingerprint");
    }
}
