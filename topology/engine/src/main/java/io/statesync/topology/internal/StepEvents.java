package io.statesync.topology.internal;

import io.statesync.avro.ApplyError;
import io.statesync.avro.Correction;
import io.statesync.avro.EventType;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Resource;
import io.statesync.reconciler.Decision;
import io.statesync.reconciler.HealthStatus;
import io.statesync.reconciler.MergeResult;
import io.statesync.reconciler.StatusCalculator;
import io.statesync.reconciler.StatusView;
import io.statesync.topology.ReconcileMetrics;

/**
 * The events of one reconcile that are not sync-status transitions: the correction it issued (CorrectionIssued,
 * DriftDetected or Retrying), a merge conflict that correction resolved, and a change of health. Messages carry no
 * attempt numbers, command ids or times, so that repeats aggregate into one entry with a count.
 */
final class StepEvents {

    private final Events events;
    private final ReconcileMetrics metrics;

    StepEvents(Events events, ReconcileMetrics metrics) {
        this.events = events;
        this.metrics = metrics;
    }

    /** What the reconcile issued: {@code correction} is null when it issued none. */
    void correction(String key, Resource res, Correction correction, MergeResult merge, StatusView next,
                    ObservedState observed, long ts, ReconcileEngine.Output out) {
        if (correction == null) {
            return;
        }
        String kind = res.getMetadata().getKind();
        if (merge != null && !merge.conflicts().isEmpty()) {
            metrics.conflict(kind, ReconcileMetrics.FIELD_VALUE_CONFLICT, merge.conflicts().size());
            out.event(key, events.about(EventType.Warning, "MergeConflict", StatusCalculator.conflictFields(merge),
                res, null, ts), ts);
        }
        String what = correction.getAction() + " (" + correction.getReason() + ")";
        switch (correction.getReason()) {
            case Drift -> out.event(key, events.about(EventType.Warning, "DriftDetected",
                "observed state drifted from the spec: " + StatusCalculator.summarize(next.diff()) + "; " + what
                    + " issued", res, null, ts), ts);
            case Retry -> out.event(key, events.about(EventType.Warning, "Retrying",
                what + " issued again after backoff: " + lastFailure(observed), res, null, ts), ts);
            default -> out.event(key, events.about(EventType.Normal, "CorrectionIssued",
                what + " for generation " + correction.getGeneration(), res, null, ts), ts);
        }
    }

    /** The agent's terminal failure that stalled the key at once, ahead of the Stalled event. */
    void applyFailed(String key, Resource res, Decision decision, ObservedState observed, long ts,
                     ReconcileEngine.Output out) {
        if (decision instanceof Decision.Stalled s && s.terminal()) {
            ApplyError e = observed == null ? null : observed.getError();
            String message = e == null ? s.message() : e.getMessage();
            out.event(key, events.about(EventType.Warning, "ApplyFailed", "terminal error for generation "
                + res.getMetadata().getGeneration() + ": " + message, res, null, ts), ts);
        }
    }

    /** A change of health on a resource that was judged before (not the first status admission gave it). */
    void health(String key, Resource res, StatusView prev, StatusView next, long ts, ReconcileEngine.Output out) {
        HealthStatus from = prev.health().status();
        HealthStatus to = next.health().status();
        if (from == to || prev.conditions().isEmpty()) {
            return;
        }
        EventType type = to == HealthStatus.Degraded || to == HealthStatus.Unknown ? EventType.Warning : EventType.Normal;
        String why = next.health().message();
        out.event(key, events.about(type, "HealthChanged", from + " -> " + to + (why.isEmpty() ? "" : ": " + why),
            res, null, ts), ts);
    }

    private static String lastFailure(ObservedState observed) {
        ApplyError e = observed == null ? null : observed.getError();
        return e == null ? "the last correction did not converge" : e.getMessage();
    }
}
