package io.statesync.reconciler;

import java.time.Instant;
import java.util.Objects;

/**
 * {@code status.health}: the health, why, and when the health last changed ({@code lastTransitionTime} moves only
 * when {@code status} does; null before the first evaluation).
 */
public record HealthView(HealthStatus status, String message, Instant lastTransitionTime) {
    private static final HealthView UNKNOWN = new HealthView(HealthStatus.Unknown, "", null);

    public HealthView {
        Objects.requireNonNull(status, "status");
        message = message == null ? "" : message;
    }

    /** The health of a status written before health was judged. */
    public static HealthView unknown() {
        return UNKNOWN;
    }
}
