package io.statesync.reconciler.internal;

import io.statesync.reconciler.ConditionView;
import io.statesync.reconciler.Diagnosis;
import io.statesync.reconciler.DiffKind;
import io.statesync.reconciler.FieldDiff;
import io.statesync.reconciler.HealthView;
import io.statesync.reconciler.LastCorrection;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.StatusView;
import io.statesync.reconciler.SyncStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** The rules behind {@link io.statesync.reconciler.Diagnoser}. */
public final class DiagnosisRules {
    private DiagnosisRules() {
    }

    public static Diagnosis diagnose(long generation, StatusView status, LastCorrection lastCorrection, Instant now,
                                     ReconcilePolicy policy) {
        long lag = Math.max(0, generation - status.observedGeneration());
        List<ConditionView> unhealthy = status.conditions().stream()
                .filter(c -> unhealthy(c, now, policy)).toList();
        Optional<Diagnosis.StuckCorrection> stuck = stuck(status, lastCorrection, now);
        List<String> hints = new ArrayList<>();
        conditionHints(status, policy, hints);
        healthHint(status.health(), hints);
        stuck.ifPresent(s -> hints.add("Correction " + s.commandId() + " (" + s.action() + "/" + s.reason()
                + ", attempt " + s.attempt() + ") is " + human(s.overdueBy())
                + " past its deadline without convergence: check the actuator's logs for that command id."));
        if (lag > 0) {
            hints.add("The agent reports generation " + status.observedGeneration() + " but the desired generation is "
                    + generation + ": it has not applied the latest spec yet.");
        }
        diffHints(status.diff(), policy, hints);
        if (hints.isEmpty()) {
            hints.add(status.syncStatus() == SyncStatus.Synced ? "In sync; nothing to do."
                    : "Status is " + status.syncStatus() + "; no specific problem found.");
        }
        return new Diagnosis(lag, unhealthy, stuck, hints);
    }

    private static boolean unhealthy(ConditionView c, Instant now, ReconcilePolicy policy) {
        return switch (c.type()) {
            case ConditionView.SYNCED -> !c.isTrue();
            case ConditionView.STALLED, ConditionView.OBSERVED_STALE -> c.isTrue();
            case ConditionView.PROGRESSING ->
                    c.isTrue() && now.isAfter(c.lastTransitionTime().plus(policy.correctionDeadline()));
            default -> ConditionView.FALSE.equals(c.status());
        };
    }

    private static Optional<Diagnosis.StuckCorrection> stuck(StatusView status, LastCorrection last, Instant now) {
        if (last == null || status.syncStatus() == SyncStatus.Synced || !now.isAfter(last.deadline())) {
            return Optional.empty();
        }
        return Optional.of(new Diagnosis.StuckCorrection(last.commandId(), last.action(), last.reason(),
                last.attempt(), last.issuedAt(), last.deadline(), Duration.between(last.deadline(), now)));
    }

    private static void conditionHints(StatusView status, ReconcilePolicy policy, List<String> hints) {
        switch (status.syncStatus()) {
            case Stalled -> hints.add("Gave up after " + status.attempts() + " attempts (maxAttempts "
                    + policy.maxAttempts() + "): fix the actuator, then change the spec; a new generation resets "
                    + "the attempts.");
            case Orphaned -> hints.add("Observed but not desired (orphanPolicy " + policy.orphanPolicy()
                    + "): write a desired spec to adopt it, or set orphanPolicy PRUNE to delete it.");
            case Deleting -> hints.add("Deleting: waiting for the agent to report the resource gone; finalizers "
                    + policy.finalizers() + " are removed by statesync then.");
            default -> { }
        }
        status.condition(ConditionView.OBSERVED_STALE).ifPresent(c -> {
            if (c.isTrue()) {
                hints.add("No observation for longer than the staleness bound " + human(policy.stalenessBound())
                        + " (" + c.message() + "): is the agent for this kind running?");
            } else if (ConditionView.UNKNOWN.equals(c.status())) {
                hints.add("No agent has ever reported this resource: is an agent running for this kind?");
            }
        });
    }

    private static void healthHint(HealthView h, List<String> hints) {
        String why = h.message().isEmpty() ? "" : " (" + h.message() + ")";
        switch (h.status()) {
            case Degraded -> hints.add("Health is Degraded" + why + ": it can match its spec and still fail at run "
                    + "time; look at the status and conditions the agent reports.");
            case Unknown -> {
                if (h.message().startsWith(io.statesync.reconciler.HealthRules.FAILED)) {
                    hints.add("Health is Unknown" + why + ": fix the kind's health rule to fit what the agent reports.");
                }
            }
            default -> { }
        }
    }

    private static void diffHints(List<FieldDiff> diff, ReconcilePolicy policy, List<String> hints) {
        if (diff.isEmpty()) {
            return;
        }
        hints.add(diff.size() + " field(s) differ: " + diff.stream().limit(5).map(d -> d.path() + " (" + d.kind() + ")")
                .collect(Collectors.joining(", ")) + (diff.size() > 5 ? ", ..." : "") + ".");
        diff.stream().filter(d -> d.kind() == DiffKind.TYPE_MISMATCH).limit(3).forEach(d -> hints.add(
                "Field " + d.path() + " is " + io.statesync.reconciler.Trees.typeName(d.observed())
                        + " on the observed side but " + io.statesync.reconciler.Trees.typeName(d.desired())
                        + " in the desired spec" + (policy.strictTyping()
                        ? "; strictTyping is on, so 5 and 5.0 differ." : ".")));
    }

    private static String human(Duration d) {
        if (d.toHours() > 0) {
            return d.toHours() + "h" + d.toMinutesPart() + "m";
        }
        if (d.toMinutes() > 0) {
            return d.toMinutes() + "m" + d.toSecondsPart() + "s";
        }
        return d.toSeconds() > 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
