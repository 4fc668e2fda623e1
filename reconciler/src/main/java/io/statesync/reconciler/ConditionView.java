package io.statesync.reconciler;

import java.time.Instant;
import java.util.Objects;

/**
 * A Kubernetes-style condition. {@code status} is "True", "False" or "Unknown"; {@code lastTransitionTime} changes
 * only when {@code status} does.
 */
public record ConditionView(String type, String status, String reason, String message, Instant lastTransitionTime) {
    public static final String SYNCED = "Synced";
    public static final String PROGRESSING = "Progressing";
    public static final String STALLED = "Stalled";
    public static final String OBSERVED_STALE = "ObservedStale";
    /** True while a correction that overrode someone else's change to a field has not converged. */
    public static final String MERGE_CONFLICT = "MergeConflict";
    /** True when the health is Healthy, Unknown when it is Unknown, else False; its reason is the health. */
    public static final String HEALTHY = "Healthy";
    /** The condition an agent reports to say whether the resource is ready (the default health without rules). */
    public static final String READY = "Ready";

    public static final String TRUE = "True";
    public static final String FALSE = "False";
    public static final String UNKNOWN = "Unknown";

    public ConditionView {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(status, "status");
        reason = reason == null ? "" : reason;
        message = message == null ? "" : message;
        Objects.requireNonNull(lastTransitionTime, "lastTransitionTime");
    }

    public boolean isTrue() {
        return TRUE.equals(status);
    }
}
