package io.statesync.reconciler;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The computed status of a resource. {@code equals} compares everything; {@link #sameExceptHeartbeat} ignores
 * {@code lastObservedAt}, which moves with every agent report, so that the caller can skip re-emitting a Resource
 * whose status did not really change.
 *
 * @param convergedAt when the resource last became Synced, or null if it never did
 * @param health      the run-time health, judged apart from syncStatus ({@link HealthCalculator})
 */
public record StatusView(SyncStatus syncStatus, List<ConditionView> conditions, List<FieldDiff> diff, int attempts,
                         long observedGeneration, Instant convergedAt, Instant lastObservedAt, HealthView health) {
    public StatusView {
        Objects.requireNonNull(syncStatus, "syncStatus");
        conditions = List.copyOf(conditions);
        diff = List.copyOf(diff);
        health = health == null ? HealthView.unknown() : health;
    }

    /** A status whose health is not judged yet. */
    public StatusView(SyncStatus syncStatus, List<ConditionView> conditions, List<FieldDiff> diff, int attempts,
                      long observedGeneration, Instant convergedAt, Instant lastObservedAt) {
        this(syncStatus, conditions, diff, attempts, observedGeneration, convergedAt, lastObservedAt, null);
    }

    public Optional<ConditionView> condition(String type) {
        // A loop, not a stream: every reconcile looks up each condition, and a stream's set-up costs more than the walk.
        for (ConditionView c : conditions) {
            if (c.type().equals(type)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    public boolean sameExceptHeartbeat(StatusView other) {
        return other != null
                && syncStatus == other.syncStatus
                && conditions.equals(other.conditions)
                && diff.equals(other.diff)
                && attempts == other.attempts
                && observedGeneration == other.observedGeneration
                && Objects.equals(convergedAt, other.convergedAt)
                && health.equals(other.health);
    }
}
