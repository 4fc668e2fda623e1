package io.statesync.reconciler;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** Derives the status of a resource from its previous status, the planner's input and its decision. */
public final class StatusCalculator {
    private StatusCalculator() {
    }

    /** @param previous the status stored with the resource, or null for a new one */
    public static StatusView compute(StatusView previous, PlanInput in, Decision decision) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * The convergence time to record when {@code next} has just become Synced: from the desired write that made the
     * current generation to {@code next.convergedAt()}. Empty when nothing converged in this step.
     */
    public static Optional<Duration> convergenceTime(StatusView previous, StatusView next, Instant desiredWrittenAt) {
        throw new UnsupportedOperationException("not yet");
    }
}
